import Foundation
import Testing

@testable import UserDefault

/// A subclass of `UserDefaults` with storage of its own: every instance gets a backend of
/// its own (as every non-standard instance does on Apple platforms).
private final class OwnStorageDefaults: UserDefaults {}

/// Storage of its own, and Foundation's lookup reads `others` through the library first,
/// then looks whether its own backend is still alive.
private final class ReadingOthersDefaults: UserDefaults {
  var others: [UserDefaults] = []
  weak var outerBackend: AnyObject?
  private(set) var nestedReads = 0
  private(set) var outerBackendWasGone = 0

  override func object(forKey name: String) -> Any? {
    for other in others {
      _ = other[UserDefaults.Key<Int>(name, default: 0)]
      nestedReads += 1
    }
    if !others.isEmpty, outerBackend == nil { outerBackendWasGone += 1 }
    return super.object(forKey: name)
  }
}

/// Instances that are dropped release what the library made for them. Regression: the
/// table of instances kept every instance with a backend of its own, with its cache and
/// observers, for the life of the process (about 250 MB over 100,000 instances).
/// Serialized: each test counts the table's entries, which the other's instances change.
@Suite(.serialized) struct FoundationInstancesTests {
  /// Each instance is freed once it is dropped (nothing the library keeps holds it), and
  /// the backend made for it when the table next sweeps its stale entries: the table holds
  /// the backends of at most 256 dropped instances (its smallest sweep) when few are alive.
  @Test func droppedInstancesAndTheirBackendsAreFreed() {
    Diagnostics.installRecorder()  // saving off: 1,000 suites are not 1,000 files
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    var instances: [Weak<UserDefaults>] = []
    var backends: [Weak<AnyObject>] = []
    for index in 0..<1_000 {
      let own = OwnStorageDefaults(suiteName: uniqueKey())!
      own[key] = index
      #expect(own[key] == index)
      instances.append(Weak(own))
      backends.append(Weak(FoundationInstances.backend(of: own)))
    }
    // The thread's record of the last instance resolved holds that one: resolve another.
    _ = UserDefaults.standard[key]
    #expect(instances.filter { $0.object != nil }.count == 0)
    let alive = backends.filter { $0.object != nil }.count
    #expect(alive < 256, "\(alive) of 1,000 backends of dropped instances are alive")
  }

  /// A read borrows, unretained, the thread's record of the last instance resolved and
  /// the backend it names. A read that resolves other instances meanwhile (as an
  /// observer's read may, inside Foundation's lookup on Apple platforms) replaces that
  /// record; the outer read's backend, which only the table and the record hold for an
  /// instance with storage of its own, must stay alive until the outer read ends.
  @Test func aReadThatResolvesOtherInstancesMeanwhileKeepsItsBackend() {
    Diagnostics.installRecorder()
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let defaults = ReadingOthersDefaults(suiteName: uniqueKey())!
    let others = (0..<2).map { _ in OwnStorageDefaults(suiteName: uniqueKey())! }
    defaults[key] = 7
    defaults.outerBackend = FoundationInstances.backend(of: defaults)
    for _ in 0..<100 {
      // Resolved last, so the next read borrows its record.
      defaults.others = []
      #expect(defaults[key] == 7)
      defaults.others = others
      #expect(defaults[key] == 7)
    }
    #expect(defaults.nestedReads >= 200)
    #expect(defaults.outerBackendWasGone == 0)
  }

  /// What the freeing is for: memory stays flat, measured in a child process of its own
  /// (in this one, the tests running beside it allocate too).
  @Test(.linuxFiles) func droppedInstancesLeaveMemoryFlat() throws {
    #if os(Linux)
      let directory = TemporaryDirectory()
      let run = try ChildProcess.run(
        "UserDefaultTestHelper", ["instances", uniqueKey(), "100000"],
        environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
      #expect(run.status == 0, "\(run.error)")
      // Under a sanitizer (CI's address and thread sanitizer runs) the helper is built with
      // it too, and does not measure; the plain and release runs do.
      if Self.isSanitized {
        #expect(run.output.contains("growth unmeasured"), "\(run.output)")
        return
      }
      let growth = try #require(
        run.output.split(separator: "\n").first { $0.hasPrefix("growth ") }
          .flatMap { Int($0.dropFirst("growth ".count)) })
      // 184 MB before instances were released; about 0.2 MB after.
      #expect(growth < 8 << 20, "resident memory grew by \(growth >> 10) KiB")
    #endif
  }

  /// Instances alive at once have addresses of their own (one made and dropped at a time
  /// would reuse its address, which replaces the entry without a sweep).
  @Test func staleEntriesAreSweptAndLiveOnesKept() {
    let own = OwnStorageDefaults(suiteName: uniqueKey())!
    let first = FoundationInstances.backend(of: own)
    func resolveHeld(_ count: Int) -> [UserDefaults] {
      let held = (0..<count).map { _ in OwnStorageDefaults(suiteName: "x")! }
      for instance in held { _ = FoundationInstances.backend(of: instance) }
      return held
    }
    var held = resolveHeld(2_000)
    held = []  // the 2,000 are gone: their entries are stale
    held = resolveHeld(3_000)
    // Without a sweep the table would hold 5,000 entries and more.
    #expect(FoundationInstances.rememberedCount < 4_500)
    #expect(FoundationInstances.backend(of: own) === first)
    #expect(held.count == 3_000)
  }
}

extension FoundationInstancesTests {
  /// Whether this process runs under the address or thread sanitizer.
  static var isSanitized: Bool {
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
      || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
  }
}

/// A weak reference, to see whether an object was freed.
private struct Weak<Object: AnyObject> {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}
