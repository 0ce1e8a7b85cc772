import Foundation

@testable import PropertyListCodec
@testable import UserDefault

/// A child process started with `posix_spawn` and reaped with `waitpid`: the part of
/// Foundation's `Process` the tests use, under the same names.
///
/// Why not `Process`: on Linux it hands each child to a manager thread's run loop, and that
/// thread and the one in `waitUntilExit()` touch the same fields unsynchronised when the
/// child ends (swift-corelibs-foundation pull requests 3125 and 3126 describe the race);
/// it also marks a child running before it stores the child's identifier, which the
/// manager thread may use meanwhile. Its children inherit every descriptor not marked
/// close-on-exec, which once let one test wait on another test's busy loop. This type
/// keeps no thread and no run loop: the thread that waits reaps the child itself, and a
/// child inherits only its three standard streams. (It was not the cause of the heap
/// corruption that aborted test runs; see ``PerThread`` in the library for that.)
///
/// Any thread may ask about or stop the child: the wait status is kept under a lock, and
/// the child is reaped only under it, so a signal sent under the lock cannot reach another
/// process that reused the identifier.
final class SpawnedProcess: Sendable {
  let processIdentifier: pid_t
  /// The child's wait status, once reaped.
  private let waitStatus = Lock<Int32?>(nil)

  /// Starts `executable` with `arguments`, in the test process's environment with the
  /// `environment` given set over it (`nil` removes a variable); each pipe given becomes
  /// one of its standard streams, and no other descriptor is inherited, whatever its
  /// close-on-exec flag.
  init(
    _ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
    directory: String? = nil, input: Pipe? = nil, output: Pipe? = nil, error: Pipe? = nil
  ) throws {
    var actions = try FileActions()
    defer { actions.destroy() }
    if let input { try actions.duplicate(input.fileHandleForReading, onto: 0) }
    if let output { try actions.duplicate(output.fileHandleForWriting, onto: 1) }
    if let error { try actions.duplicate(error.fileHandleForWriting, onto: 2) }
    try actions.closeInheritedDescriptors()
    if let directory { try actions.changeDirectory(to: directory) }
    var attributes = try SpawnAttributes()
    defer { attributes.destroy() }

    let path = executable.path
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    var childEnvironment = ProcessInfo.processInfo.environment
    for (name, value) in environment { childEnvironment[name] = value }
    let envp = childEnvironment.map { strdup("\($0)=\($1)") } + [nil]
    defer { for string in argv + envp { free(string) } }
    var pid: pid_t = 0
    try check(posix_spawn(&pid, path, &actions.value, &attributes.value, argv, envp))
    processIdentifier = pid
    // The child has its own copies now; the parent's copies of the child's ends would keep
    // a reader from ever seeing the end of the output.
    try input?.fileHandleForReading.close()
    try output?.fileHandleForWriting.close()
    try error?.fileHandleForWriting.close()
  }

  var isRunning: Bool {
    waitStatus.withLock { status in
      if status == nil { status = reap() }
      return status == nil
    }
  }

  func waitUntilExit() {
    // Wait for the end without reaping (WNOWAIT), then reap under the lock.
    var info = siginfo_t()
    while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
    waitStatus.withLock { status in
      if status == nil { status = reap() }
    }
  }

  /// Sends `signal` unless the child was already reaped.
  func send(_ signal: Int32) {
    waitStatus.withLock { status in
      if status == nil { kill(processIdentifier, signal) }
    }
  }

  /// Sends SIGTERM.
  func terminate() { send(SIGTERM) }

  /// The exit status, or the signal that ended the child. Call after `waitUntilExit()`.
  var terminationStatus: Int32 {
    let status = finishedStatus
    return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
  }

  var terminationReason: Process.TerminationReason {
    finishedStatus & 0x7f == 0 ? .exit : .uncaughtSignal
  }

  private var finishedStatus: Int32 {
    guard let status = waitStatus.withLock({ $0 }) else {
      preconditionFailure("the child has not been waited for")
    }
    return status
  }

  /// The wait status if the child has ended (it is reaped then), else `nil`.
  private func reap() -> Int32? {
    var status: Int32 = 0
    while true {
      let result = waitpid(processIdentifier, &status, WNOHANG)
      if result == processIdentifier { return status }
      if result == 0 { return nil }
      guard errno == EINTR else {
        preconditionFailure("waitpid(\(processIdentifier)) failed: errno \(errno)")
      }
    }
  }
}

/// `posix_spawn_file_actions_t`, whose type differs between Darwin (a pointer) and glibc.
private struct FileActions {
  #if canImport(Darwin)
    var value: posix_spawn_file_actions_t?
  #else
    var value = posix_spawn_file_actions_t()
  #endif

  init() throws { try check(posix_spawn_file_actions_init(&value)) }

  mutating func duplicate(_ handle: FileHandle, onto target: Int32) throws {
    try check(posix_spawn_file_actions_adddup2(&value, handle.fileDescriptor, target))
  }

  mutating func closeInheritedDescriptors() throws {
    #if canImport(Darwin)
      // `SpawnAttributes` sets POSIX_SPAWN_CLOEXEC_DEFAULT instead.
    #else
      typealias CloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
      guard
        let closeFrom = glibcFunction(
          "posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)
      else { throw POSIXError(.ENOSYS) }
      try check(closeFrom(&value, 3))
    #endif
  }

  mutating func changeDirectory(to path: String) throws {
    #if canImport(Darwin)
      try check(posix_spawn_file_actions_addchdir_np(&value, path))
    #else
      typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) ->
        Int32
      guard
        let changeDirectory = glibcFunction(
          "posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)
      else { throw POSIXError(.ENOSYS) }
      try check(changeDirectory(&value, path))
    #endif
  }

  mutating func destroy() { posix_spawn_file_actions_destroy(&value) }
}

/// `posix_spawnattr_t`: the child starts with default signal handling and no signal
/// blocked, whatever the spawning thread had (a child inherits both through `exec`).
private struct SpawnAttributes {
  #if canImport(Darwin)
    var value: posix_spawnattr_t?
  #else
    var value = posix_spawnattr_t()
  #endif

  init() throws {
    try check(posix_spawnattr_init(&value))
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    try check(posix_spawnattr_setsigmask(&value, &none))
    try check(posix_spawnattr_setsigdefault(&value, &all))
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    #if canImport(Darwin)
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    try check(posix_spawnattr_setflags(&value, Int16(flags)))
  }

  mutating func destroy() { posix_spawnattr_destroy(&value) }
}

#if !canImport(Darwin)
  /// A glibc function its headers declare only for `_GNU_SOURCE`, which Swift's Glibc
  /// module does not define (both used here are in glibc 2.34 and later).
  private func glibcFunction<Function>(_ name: String, as _: Function.Type) -> Function? {
    dlsym(nil, name).map { unsafeBitCast($0, to: Function.self) }
  }
#endif

private func check(_ result: Int32) throws {
  guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
}
