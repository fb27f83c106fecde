/* rsv — entry points of the top-level commands (one file each: cmd_<name>.c).
 * Each gets the arguments after its name and the command path for messages. */
#ifndef RSV_COMMANDS_H
#define RSV_COMMANDS_H

int cmd_codes(int argc, char **argv, const char *prog);

#endif
