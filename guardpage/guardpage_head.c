/* Views flush against a leading PROT_NONE page (CODES.md §1.2 A1): any load
 * starting before the view's first byte faults. The first byte is
 * page-aligned, so a load rounded down to an 8-byte address cannot reach the
 * page: that one is caught only by the load-bounds oracle (RSV_LOAD_CHECK;
 * see guardpage_align.c). */
#include "gp_flush.h"
#include "guardpage.h"

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    return gp_flush_run(GP_FLUSH_LEADING);
}
