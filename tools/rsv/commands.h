/* rsv — entry points of the top-level commands (one file each: cmd_<name>.c).
 * Each gets the arguments after its name and the command path for messages. */
#ifndef RSV_COMMANDS_H
#define RSV_COMMANDS_H

int cmd_codes(int argc, char **argv, const char *prog);
int cmd_dump(int argc, char **argv, const char *prog);
int cmd_verify(int argc, char **argv, const char *prog);
int cmd_stat(int argc, char **argv, const char *prog);
int cmd_write(int argc, char **argv, const char *prog);
int cmd_merge(int argc, char **argv, const char *prog);
int cmd_gen_fixture(int argc, char **argv, const char *prog);
int cmd_gen_counts(int argc, char **argv, const char *prog);

#endif
