import Foundation
import Testing

@testable import UserDefault

/// A Codable value that counts its decodes, to see when the cache spares one.
struct Counted: Codable, Equatable, Sendable, UserDefaultable {
  var value: Int
  static let decodes = Counter()

  static func decoded(from base: String) throws(DefaultsError) -> Counted {
    decodes.increment()
    return try JSONCoding.shared.decode(Counted.self, fromString: base)
  }

  static func json(_ value: Int) -> String { #"{"value":\#(value)}"# }
}

/// The decoded-value cache: an unchanged value is not decoded again, and every way of
/// changing the stored value is seen by the next read.
@Suite("Decoded-value cache", .serialized)
struct DecodedValueCacheTests {
  private func decodes(during body: () -> Void) -> Int {
    let before = Counted.decodes.value
    body()
    return Counted.decodes.value - before
  }

  @Test func unchangedValuesAreDecodedOnceOnBothKindsOfInstance() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Counted?>(uniqueKey())
    for defaults in [suite.defaults, PreferencesStore.inMemory()] {
      defaults[key] = Counted(value: 1)
      var reads: [Counted?] = []
      let count = decodes { for _ in 0..<5 { reads.append(defaults[key]) } }
      #expect(count == 1)
      #expect(reads == Array(repeating: Counted(value: 1), count: 5))
    }
  }

  @Test func libraryWritesInvalidate() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Counted?>(uniqueKey())
    for defaults in [suite.defaults, PreferencesStore.inMemory()] {
      defaults[key] = Counted(value: 1)
      _ = defaults[key]
      UserDefault<Counted?>(key.name, defaults: defaults).wrappedValue = Counted(value: 2)
      #expect(defaults[key] == Counted(value: 2))
      defaults.reset(key)
      #expect(defaults[key] == nil)
    }
  }

  @Test func writesThroughAnotherInstanceOfTheSuiteAreSeen() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Counted?>(uniqueKey())
    suite.defaults[key] = Counted(value: 1)
    _ = suite.defaults[key]
    UserDefaults(suiteName: suite.name)![key] = Counted(value: 2)
    #expect(suite.defaults[key] == Counted(value: 2))
    // A plain Foundation call on another instance, bypassing the library.
    UserDefaults(suiteName: suite.name)!.set(Counted.json(3), forKey: key.name)
    #expect(suite.defaults[key] == Counted(value: 3))
  }

  @Test func plainCallsOnAnInstanceTheLibraryKnowsAreSeen() {
    let suite = TestSuite()
    let key = UserDefaults.Key<Counted?>(uniqueKey())
    let store = PreferencesStore.inMemory()
    for defaults in [suite.defaults, store] {
      defaults[key] = Counted(value: 1)
      _ = defaults[key]
      defaults.set(Counted.json(4), forKey: key.name)
      #expect(defaults[key] == Counted(value: 4))
      defaults.removeObject(forKey: key.name)
      #expect(defaults[key] == nil)
    }
  }

  @Test("Another process's write is seen after the store's poll (bounded wait)", .linuxFiles)
  func anotherProcessWriteIsSeen() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    let store = try PreferencesStore(suiteName: "cached", directory: directory.path)
    let key = UserDefaults.Key<Counted?>("counted")
    store[key] = Counted(value: 1)
    try store.flush()
    _ = store[key]
    let changed = DispatchSemaphore(value: 0)
    let observation = store.observe(key) {
      if $0.newValue == Counted(value: 5) { changed.signal() }
    }
    let child = try ChildProcess.run(
      "UserDefaultTestHelper", ["store-set-string", "cached", "counted", Counted.json(5)],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(child.status == 0)
    // Staleness is bounded by PreferencesStore.pollInterval (200 ms); 10 s bounds the test.
    #expect(changed.wait(timeout: .now() + 10) == .success)
    #expect(store[key] == Counted(value: 5))
    observation.cancel()
  }
}
