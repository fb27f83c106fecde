/* The flush sweep of CODES.md §8: views whose byte range ends at the last
 * readable byte before a PROT_NONE page (trailing) or starts at the first
 * readable byte after one (leading), for 1-40 bytes x start offsets 0-7 x
 * unused tail bits 0-7 x fills 0x00 / 0xFF / random, each put through
 * gp_battery. Returns the process exit status (after gp_report). */
#ifndef RSV_GP_FLUSH_H
#define RSV_GP_FLUSH_H

enum gp_flush_side { GP_FLUSH_TRAILING, GP_FLUSH_LEADING };

int gp_flush_run(enum gp_flush_side side);

#endif
