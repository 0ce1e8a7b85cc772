import DefaultEntry
import Foundation
import Observation
import SafeDefaultsKit
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// A backend written in this file alone, as the README's Architecture section promises: a
/// dictionary under a lock, reached through a `UserDefaults` subclass that carries it. No
/// other file of the library knows it, yet every surface reaches it.
final class DictionaryBackend: StoreBackend {
  let context: SuiteContext
  private struct State {
    var values: [String: Any] = [:]
    var hasUnsavedChanges = false
    var flushes = 0
  }
  // `Lock` is @unchecked Sendable: the values are only touched under it.
  private let state = Lock(State())
  private let oneRunAtATime = Lock(())

  init(name: String) {
    context = SuiteContext(name: name, seesEveryWrite: true)
  }

  var flushes: Int { state.withLock { $0.flushes } }

  func object(forKey name: String) -> Any? { state.withLock { $0.values[name] } }

  // The name's number is for backends that keep records per name; this one needs none.
  func object(forKey name: String, number _: Int) -> Any? { object(forKey: name) }

  func storedObject(forKey name: String, number _: Int) -> StoredObject? {
    object(forKey: name).map(StoredObject.other)
  }

  func launchArgument(forKey name: String) -> StoredObject? { nil }

  func ownObject(forKey name: String) -> Any? { object(forKey: name) }

  func update(_ name: String, to object: Any?, identity: KeyIdentity?) {
    update([(name, object, identity)])
  }

  func update(_ writes: [(name: String, object: Any?, identity: KeyIdentity?)]) {
    let changes = state.withLock { state in
      writes.compactMap { write -> ChangeHub.Change? in
        let old = state.values[write.name]
        state.values[write.name] = write.object
        guard var change = ChangeHub.Change(name: write.name, from: old, to: write.object) else {
          return nil
        }
        state.hasUnsavedChanges = true
        change.trackingPath = write.identity?.path
        return change
      }
    }
    context.announce(changes)
  }

  func exclusively<Result>(
    _ body: (_ commit: () throws(DefaultsError) -> Void) throws(DefaultsError) -> Result
  ) throws(DefaultsError) -> Result {
    try oneRunAtATime.withLock { (_: inout Void) throws(DefaultsError) in
      try body { () throws(DefaultsError) in try self.flush() }
    }
  }

  func adoptFileValue(forKey name: String) {}

  func flush() throws(DefaultsError) {
    state.withLock { state in
      guard state.hasUnsavedChanges else { return }
      state.flushes += 1
      state.hasUnsavedChanges = false
    }
  }

  var hasUnsavedChanges: Bool { state.withLock { $0.hasUnsavedChanges } }

  func watchOutsideChanges(of names: [String]) {}
}

/// The instance every surface is given: it carries its backend.
final class DictionaryDefaults: UserDefaults, BackendCarrier {
  let carriedBackend: any StoreBackend

  init?(_ backend: DictionaryBackend) {
    carriedBackend = backend
    super.init(suiteName: nil)
  }
}

extension UserDefaults {
  @DefaultEntry(default: 3)
  var addedBackendEntry: Int
}

private struct AddedBackendSafeDefaults: SafeDefaults {
  enum Keys: String, DefaultsKey { case addedBackendSafe }
  let userDefaults: UserDefaults
}

private struct AddedBackendSettings {
  @UserDefault(\.addedBackendEntry) var entry
}

/// Objects reachable from a `@Sendable` callback: the test keeps the instance alive.
private final class Model {
  @UserDefault var name: String
  @UserDefaultsWrapper var count: Int

  init(_ defaults: UserDefaults) {
    _name = UserDefault("added.name", defaultValue: "Ada", defaults: defaults)
    _count = UserDefaultsWrapper(key: "added.count", default: 1, userDefaults: defaults)
  }
}

@Suite("A backend added in a test file")
struct AddedBackendTests {
  let backend = DictionaryBackend(name: "added-" + UUID().uuidString)
  var defaults: UserDefaults { DictionaryDefaults(backend)! }

  @Test("typed keys read, write, reset and tell what is stored, in the backend")
  func typedKeys() {
    let defaults = self.defaults
    let volume = UserDefaults.Key<Int>("added.volume", default: 5)
    let tags = UserDefaults.Key<[String]>("added.tags", default: [])
    #expect(defaults[volume] == 5 && defaults.isDefaultValue(volume))
    defaults[volume] = 9
    defaults[tags] = ["a", "b"]
    #expect(backend.object(forKey: "added.volume") as? Int == 9)
    #expect(DictionaryDefaults(backend)![volume] == 9, "a second object of the backend")
    #expect(defaults[tags] == ["a", "b"] && defaults.hasStoredValue(tags))
    defaults.reset(volume)
    #expect(defaults[volume] == 5 && backend.object(forKey: "added.volume") == nil)
  }

  @Test("@UserDefault and UserDefaultsWrapper given the instance store in the backend")
  func propertyWrappers() {
    let model = Model(defaults)
    #expect(model.name == "Ada" && model.count == 1)
    model.name = "Grace"
    model.count = 7
    #expect(backend.object(forKey: "added.name") as? String == "Grace")
    #expect(backend.object(forKey: "added.count") as? Int == 7)
    model.$count.removeObject()
    #expect(model.count == 1 && backend.object(forKey: "added.count") == nil)
  }

  @Test("the key-path wrapper, entries and SafeDefaults reach it as the scoped default")
  func scopedSurfaces() {
    let defaults = self.defaults
    UserDefaults.withDefault(defaults) {
      let settings = AddedBackendSettings()
      #expect(settings.entry == 3)
      settings.entry = 4
      #expect(UserDefaults.libraryDefault.addedBackendEntry == 4)
    }
    #expect(backend.object(forKey: "key_addedBackendEntry") as? Int == 4)
    let safe = AddedBackendSafeDefaults(userDefaults: defaults)
    safe.set(12, forKey: .addedBackendSafe)
    #expect(safe.integer(forKey: .addedBackendSafe) == 12)
    #expect(backend.object(forKey: "addedBackendSafe") as? Int == 12)
  }

  @Test("observers, update streams and the Observation framework hear its writes")
  func observation() async {
    let defaults = self.defaults
    let key = UserDefaults.Key<Int>("added.observed", default: 0)
    let heard = Recorder<Int>()
    let observation = defaults.observe(key) { heard.append($0.newValue) }
    let changed = Counter()
    withObservationTracking {
      _ = defaults[key]
    } onChange: {
      changed.increment()
    }
    var updates = defaults.updates(key, initial: false).makeAsyncIterator()
    defaults[key] = 1
    #expect(heard.all == [1])
    #expect(changed.value == 1)
    #expect(await updates.next() == 1)
    withExtendedLifetime(observation) {}
  }

  @Test("migrations, updates and transactions run on it, and the exit flush saves it")
  func exclusiveRunsAndTheExitFlush() throws {
    let name = "added-registered-" + UUID().uuidString
    let backend = SuiteRegistry.backend(identifiedBy: name) { DictionaryBackend(name: name) }
    let defaults = DictionaryDefaults(backend)!
    defaults[UserDefaults.Key<String>("added.old", default: "")] = "kept"
    try Migrations([Migration(1, .rename("added.old", to: "added.new"))]).run(on: defaults)
    #expect(backend.object(forKey: "added.new") as? String == "kept")
    let count = UserDefaults.Key<Int>("added.counted", default: 0)
    #expect(try defaults.update(count) { $0 += 2 } == 2)
    try defaults.transaction { t in t[count] += 1 }
    #expect(backend.object(forKey: "added.counted") as? Int == 3)
    let flushed = backend.flushes
    defaults[count] = 4
    #expect(backend.hasUnsavedChanges)
    ExitFlush.saveEverything()
    #expect(!backend.hasUnsavedChanges && backend.flushes == flushed + 1)
  }
}
