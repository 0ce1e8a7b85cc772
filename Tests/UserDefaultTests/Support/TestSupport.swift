import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// A fresh Foundation suite for one test, removed afterwards. The test process never
/// saves to disk (tests that check saving run a child process with its own
/// XDG_CONFIG_HOME), so no user's preference file is read or written.
final class TestSuite {
  let name: String
  let defaults: UserDefaults

  init(_ label: String = #function) {
    Diagnostics.installRecorder()
    name = "UserDefaultTests.\(label.prefix(while: { $0 != "(" })).\(UUID().uuidString)"
    defaults = UserDefaults(suiteName: name)!
  }

  /// The diagnostics reported about this suite so far.
  var diagnostics: [DefaultsDiagnostic] { Diagnostics.events { $0.suite == name } }

  deinit {
    defaults.removePersistentDomain(forName: name)
  }
}

/// Records every diagnostic of the test process so each test can look at its own.
enum Diagnostics {
  private static let recorded = Lock<[DefaultsDiagnostic]>([])
  private static let installed = Lock(false)

  static func installRecorder() {
    installed.withLock { installed in
      guard !installed else { return }
      installed = true
      _ = FoundationSaving.bootstrap(isEnabled: false)
      DefaultsDiagnostics.handler = { event in recorded.withLock { $0.append(event) } }
    }
  }

  static func events(where matches: (DefaultsDiagnostic) -> Bool) -> [DefaultsDiagnostic] {
    recorded.withLock { $0.filter(matches) }
  }

  /// Diagnostics about a key name unique to one test.
  static func events(forKey key: String) -> [DefaultsDiagnostic] {
    events { $0.key == key }
  }
}

extension Trait where Self == ConditionTrait {
  /// For a test of what Linux does with files: Foundation's suites kept in
  /// `$XDG_CONFIG_HOME` files that the library saves, and stores found through
  /// `XDG_CONFIG_HOME` and `XDG_CONFIG_DIRS` by child processes. On Apple platforms
  /// `cfprefsd` owns Foundation's files and ignores `HOME`, and a store's default directory
  /// is Application Support, so these tests do not apply there.
  static var linuxFiles: Self {
    #if os(Linux)
      .enabled(if: true)
    #else
      .disabled("Linux's preference files: cfprefsd and Application Support on Apple platforms")
    #endif
  }
}

/// A unique key name for one test.
func uniqueKey(_ label: String = #function) -> String {
  "\(label.prefix(while: { $0 != "(" })).\(UUID().uuidString.prefix(8))"
}

/// Runs a built executable of this package and returns its exit status and output.
struct ChildProcess {
  /// The command that runs `arguments` (a path, then its arguments) as nobody (65534)
  /// when the tests run as root, who reads and writes anything; as itself otherwise.
  static func commandAsNobody(_ arguments: [String]) -> [String] {
    guard geteuid() == 0 else { return arguments }
    return ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + arguments
  }

  /// Whether `executable`, one of the package's, runs under ``commandAsNobody(_:)`` from
  /// inside the temporary directory. Not so as root when the checkout, the toolchain or
  /// `TMPDIR` lies in a private directory (root's home, a `TMPDIR` of mode 700).
  static func nobodyCanRun(_ executable: String) -> Bool {
    guard geteuid() == 0 else { return true }
    let path = buildDirectory.appendingPathComponent(executable).path
    // Exit status 126 and 127: not executed, or its libraries not loaded.
    let command = commandAsNobody([
      "/bin/sh", "-c", "cd \"$2\" && { \"$1\" help >/dev/null 2>&1; [ $? -lt 126 ]; }", "sh",
      path, NSTemporaryDirectory(),
    ])
    guard
      let probe = try? SpawnedProcess(
        URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
    else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
  }

  /// Where the package's executables are: `USERDEFAULT_TEST_HELPERS` when set (CI points
  /// it at a release build, so process tests also run optimised code), else the build
  /// directory the test runner lives in.
  static var buildDirectory: URL {
    if let directory = ProcessInfo.processInfo.environment["USERDEFAULT_TEST_HELPERS"],
      !directory.isEmpty
    {
      return URL(fileURLWithPath: directory)
    }
    #if canImport(Darwin)
      // On a Mac the runner is the toolchain's (xctest for XCTest, swiftpm-testing-helper
      // for Swift Testing); the tests are a bundle in the build directory, beside the
      // package's executables. swiftpm-testing-helper loads the bundle's binary without
      // making it one of `Bundle.allBundles`, so the bundle is found from the image that
      // holds this code, whichever runner loaded it.
      if let directory = testBundleDirectory() { return directory }
      if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
        return bundle.bundleURL.deletingLastPathComponent()
      }
    #endif
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }

  #if canImport(Darwin)
    /// The directory holding the `.xctest` bundle whose binary holds this code (dyld's
    /// `dladdr`: the image containing an address), or `nil` outside such a bundle. Darwin
    /// only: Glibc's module does not export `dladdr`, and Linux needs none of it.
    static func testBundleDirectory() -> URL? {
      var image = Dl_info()
      guard dladdr(#dsohandle, &image) != 0, let name = image.dli_fname else { return nil }
      var url = URL(fileURLWithPath: String(cString: name))
      while url.pathExtension != "xctest" {
        guard url.pathComponents.count > 1 else { return nil }
        url.deleteLastPathComponent()
      }
      return url.deletingLastPathComponent()
    }
  #endif

  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String?]
  ) throws -> (status: Int32, output: String, error: String) {
    let output = Pipe()
    let error = Pipe()
    let process = try SpawnedProcess(
      buildDirectory.appendingPathComponent(executable), arguments,
      environment: environment, output: output, error: error)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }
}

/// A temporary directory removed when the value goes away.
final class TemporaryDirectory {
  let path: String
  init() {
    path = NSTemporaryDirectory() + "UserDefaultTests-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit {
    // A store's save after the test (a failed save's retry, the exit flush) would make the
    // directory again, so the stores in it stop saving before it goes.
    for case let store as FileStore in SuiteRegistry.backends()
    where store.file?.path.hasPrefix(path + "/") == true {
      store.stopSaving()
    }
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// Values recorded from callbacks on any thread.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Lock<[Value]>([])
  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
}

/// A count incremented from callbacks on any thread. The library's `Lock` rather than
/// `Synchronization.Atomic`, which needs macOS 15 / iOS 18 (later than the package's floor).
final class Counter: Sendable {
  private let count = Lock(0)
  func increment() { count.withLock { $0 += 1 } }
  /// Adds one and returns the new count.
  func incremented() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
  var value: Int { count.withLock { $0 } }
}

/// A child process (an executable of this package) whose output is read as it comes, for
/// tests that act while it runs.
final class RunningChild {
  let process: SpawnedProcess
  private let output = Pipe()
  private let input = Pipe()
  private let errors = Pipe()
  /// Everything the child printed that was read so far.
  private(set) var text = ""

  /// Starts `executable` of this package; through `launcher` (a program and its
  /// arguments, which runs the executable's path and `arguments`) when one is given.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String],
    launcher: [String] = []
  ) throws {
    let path = ChildProcess.buildDirectory.appendingPathComponent(executable)
    let (program, programArguments) =
      launcher.isEmpty
      ? (path, arguments)
      : (URL(fileURLWithPath: launcher[0]), launcher.dropFirst() + [path.path] + arguments)
    process = try SpawnedProcess(
      program, programArguments, environment: environment,
      input: input, output: output, error: errors)
  }

  /// Sends one line to the child's standard input.
  func send(_ line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// What the child wrote to standard error; call after it exited.
  func errorText() -> String {
    String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// Reads until `marker` has been printed or the output ends (the child exited or was
  /// stopped); returns everything read so far.
  @discardableResult
  func readUntil(_ marker: String) -> String {
    while !text.contains(marker) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    return text
  }

  /// Reads until the child printed `count` lines or its output ended; returns the
  /// complete lines read so far.
  func readLines(_ count: Int) -> [Substring] {
    while text.filter({ $0 == "\n" }).count < count {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  }

  /// Waits for the child to exit and returns all it printed.
  func finish() -> String {
    text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
  }

  /// Stops the child (SIGKILL when `abruptly`, else SIGTERM) and waits for it.
  func stop(abruptly: Bool = false) {
    process.send(abruptly ? SIGKILL : SIGTERM)
    process.waitUntilExit()
  }
}

/// Busy loops in other processes that keep every core loaded while a test runs, started
/// and stopped by the test itself (crashes that only optimised code under contention
/// showed must show up here).
final class CPUContention {
  private let loops: [SpawnedProcess]

  init(processes: Int = ProcessInfo.processInfo.activeProcessorCount) {
    // Each loop spins while the test process lives, reading its state with builtins (no
    // fork), so a test process that is itself killed leaves no busy loop behind, also
    // while it is a zombie not yet reaped (`kill -0` succeeds on a zombie).
    #if os(Linux)
      let loop =
        "while read -r _ _ state _ < /proc/\(getpid())/stat 2>/dev/null && [ \"$state\" != Z ]; do :; done"
    #else
      let loop = "while kill -0 \(getpid()) 2>/dev/null; do :; done"
    #endif
    loops = (0..<processes).compactMap { _ in
      try? SpawnedProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", loop])
    }
  }

  func stop() {
    for loop in loops {
      loop.send(SIGKILL)
      loop.waitUntilExit()
    }
  }

  deinit { stop() }
}

/// A deterministic random source (SplitMix64), so that a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Linux's `renameat2(…, RENAME_EXCHANGE)`: swaps two paths in one step, whatever each
/// is. Looked up at run time because the toolchain's Glibc module does not import it.
enum AtomicExchange {
  private typealias RenameAt2 =
    @convention(c) (
      Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
    ) -> Int32

  /// Whether `first` and `second` were swapped.
  static func exchange(_ first: String, _ second: String) -> Bool {
    guard let symbol = dlsym(nil, "renameat2") else { return false }
    let renameAt2 = unsafeBitCast(symbol, to: RenameAt2.self)
    let exchangeFlag: UInt32 = 2  // RENAME_EXCHANGE, <linux/fs.h>
    return renameAt2(AT_FDCWD, first, AT_FDCWD, second, exchangeFlag) == 0
  }
}
