/* Views flush against a trailing PROT_NONE page (CODES.md §1.2 A1, A4). */
#include "gp_flush.h"
#include "guardpage.h"

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    return gp_flush_run(GP_FLUSH_TRAILING);
}
