#ifndef TEST_PROCESS_HOME_H
#define TEST_PROCESS_HOME_H

/// The directory the test process's HOME and XDG_CONFIG_HOME were pointed at before any
/// test ran (Linux), removed at exit; NULL where the process keeps the user's own.
const char *_Nullable userdefault_test_process_home(void);

#endif
