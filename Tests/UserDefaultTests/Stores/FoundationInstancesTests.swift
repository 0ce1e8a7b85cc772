import Foundation
import Testing

@testable import UserDefault

/// A subclass of `UserDefaults` with storage of its own: every instance gets a backend of
/// its own (as every non-standard instance does on Apple platforms).
private final class OwnStorageDefaults: UserDefaults {}

/// Instances that are dropped release what the library made for them. Regression: the
/// table of instances kept every instance with a backend of its own, with its cache and
/// observers, for the life of the process (about 250 MB over 100,000 instances).
/// Serialized: each test counts the table's entries, which the other's instances change.
@Suite(.serialized) struct FoundationInstancesTests {
  @Test func droppedInstancesLeaveMemoryFlat() throws {
    #if os(Linux)
      let suite = uniqueKey()
      let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
      defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
      func useInstances(_ count: Int) {
        for index in 0..<count {
          let own = OwnStorageDefaults(suiteName: suite)!
          own[key] = index
          #expect(own[key] == index)
          let named = UserDefaults(suiteName: suite)!  // identified: the suite's backend
          _ = named[key]
        }
      }
      useInstances(1_000)
      let before = try Self.residentBytes()
      useInstances(99_000)
      let growth = try Self.residentBytes() - before
      #expect(growth < 8 << 20, "resident memory grew by \(growth >> 10) KiB")
      // Stale entries are swept as the table grows: it holds about the live instances.
      #expect(FoundationInstances.rememberedCount < 1_000)
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

  /// The resident set size of this process, from `/proc/self/statm`.
  static func residentBytes() throws -> Int {
    let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(
      separator: " ")
    return try #require(Int(fields[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
