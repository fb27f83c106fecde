/* Status messages and names, generated from RSV_STATUS_LIST (status.h): the
 * exact strings of CODES.md §6.1 and KV03.md §8. */
#include "reservoir/status.h"

const char *rsv_strerror(int code)
{
    switch (code) {
#define RSV_STATUS_MSG_(name, num, msg) \
    case num: return msg;
        RSV_STATUS_LIST(RSV_STATUS_MSG_)
#undef RSV_STATUS_MSG_
    default: return "unknown reservoir error";
    }
}

const char *rsv_status_name(int code)
{
    switch (code) {
#define RSV_STATUS_NAME_(name, num, msg) \
    case num: return "RSV_" #name;
        RSV_STATUS_LIST(RSV_STATUS_NAME_)
#undef RSV_STATUS_NAME_
    default: return "RSV_ERR_UNKNOWN";
    }
}
