// Runs before the test runner's main: gives the test process a HOME and XDG_CONFIG_HOME of
// its own, a temporary directory removed at exit. Swift Testing has no hook that runs
// before every test whatever the order, and Foundation's `synchronize()`, called by any
// test, writes every suite the process touched: the user's ~/.config got 1,000 files
// once. CoreFoundation takes its copy of the environment in a constructor of its own,
// before this one, so setting the variables is not enough: the process starts itself
// again with them. Child processes inherit them unless a test gives a directory of its
// own. Linux only: on Apple platforms cfprefsd ignores HOME.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "TestProcessHome.h"

#if defined(__linux__)
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Set in the process started again, so it keeps the directory instead of making another.
static const char *const marker = "USERDEFAULT_TEST_PROCESS_HOME";
static char home[PATH_MAX];

static int removeEntry(const char *path, const struct stat *status, int flag, struct FTW *walk) {
  (void)status;
  (void)flag;
  (void)walk;
  remove(path);
  return 0;  // go on: leave what cannot be removed, remove the rest
}

static void removeHome(void) { nftw(home, removeEntry, 16, FTW_DEPTH | FTW_PHYS); }

// glibc hands constructors the program's arguments.
__attribute__((constructor)) static void isolateHome(int argc, char **argv, char **envp) {
  (void)argc;
  (void)envp;
  const char *given = getenv(marker);
  if (given != NULL && given[0] == '/' && strlen(given) < sizeof home) {
    strcpy(home, given);
    // Registered before anything the tests start: atexit runs it last, after the
    // library's exit flush.
    atexit(removeHome);
    return;
  }
  const char *temporary = getenv("TMPDIR");
  if (temporary == NULL || temporary[0] != '/') temporary = "/tmp";
  snprintf(home, sizeof home, "%s/UserDefaultTests-home-XXXXXX", temporary);
  if (mkdtemp(home) == NULL) {
    perror("UserDefaultTests: no temporary HOME for the test process");
    exit(70);
  }
  char config[PATH_MAX];
  snprintf(config, sizeof config, "%s/.config", home);
  setenv("HOME", home, 1);
  setenv("XDG_CONFIG_HOME", config, 1);
  setenv(marker, home, 1);
  execv("/proc/self/exe", argv);
  perror("UserDefaultTests: could not start the test process again with a temporary HOME");
  rmdir(home);
  exit(70);
}

const char *userdefault_test_process_home(void) { return home[0] ? home : NULL; }
#else
const char *userdefault_test_process_home(void) { return NULL; }
#endif
