import Foundation
import Testing

@testable import UserDefault

@Suite("Migrations")
struct MigrationTests {
  @Test func renameMovesTheValueAndRecordsTheVersion() throws {
    let store = PreferencesStore.inMemory()
    store.set("Ada", forKey: "userName")
    let applied = try Migrations { Migration(1, .rename("userName", to: "profile.name")) }
      .run(on: store)
    #expect(applied == [1])
    #expect(store.string(forKey: "profile.name") == "Ada")
    #expect(store.object(forKey: "userName") == nil)
    #expect(Migrations.version(of: store) == 1)
  }

  @Test func eachMigrationRunsOnce() throws {
    let store = PreferencesStore.inMemory()
    var runs = 0
    let migrations = Migrations {
      Migration(1, .custom("count") { _ in runs += 1 })
    }
    #expect(try migrations.run(on: store) == [1])
    #expect(try migrations.run(on: store) == [])
    #expect(runs == 1)
  }

  @Test func laterMigrationsRunAfterEarlierOnesWereRecorded() throws {
    let store = PreferencesStore.inMemory()
    try Migrations { Migration(1, .drop(["a"])) }.run(on: store)
    store.set(1, forKey: "b")
    let applied = try Migrations {
      Migration(1, .drop(["a"]))
      Migration(2, .drop(["b"]))
    }.run(on: store)
    #expect(applied == [2])
    #expect(store.object(forKey: "b") == nil)
  }

  @Test func convertChangesTheStoredTypeThroughTheBridge() throws {
    let store = PreferencesStore.inMemory()
    store.set("14.5", forKey: "fontSize")
    try Migrations {
      Migration(1, .convert("fontSize", from: String.self, to: Double.self) { Double($0) })
    }.run(on: store)
    #expect(store[UserDefaults.Key<Double>("fontSize", default: 0)] == 14.5)
    #expect(store.object(forKey: "fontSize") is Double)
  }

  @Test func convertLeavesValuesItCannotReadAndReportsThem() throws {
    Diagnostics.installRecorder()
    let store = PreferencesStore.inMemory()
    let key = uniqueKey()
    store.set("not a number", forKey: key)
    try Migrations {
      Migration(1, .convert(key, from: String.self, to: Int.self) { Int($0) })
    }.run(on: store)
    #expect(store.string(forKey: key) == "not a number")
    #expect(!Diagnostics.events(forKey: key).isEmpty)
  }

  @Test("Seed recipe: a value the first @UserDefault design stored as a JSON string")
  func jsonStringsFromTheSeedDesignAreReadNatively() throws {
    let store = PreferencesStore.inMemory()
    // What the seed design wrote: JSON text for every value.
    store.set("true", forKey: "is_discount_provided")
    store.set(#"{"name":"Ada","age":36}"#, forKey: "default_user")
    try Migrations {
      Migration(1, .decodeJSONString("is_discount_provided", as: Bool.self))
      Migration(2, .decodeJSONString("default_user", as: Profile.self))
    }.run(on: store)
    #expect(store.object(forKey: "is_discount_provided") as? Bool == true)
    let wrapper = UserDefault<Bool>("is_discount_provided", defaultValue: false, defaults: store)
    #expect(wrapper.wrappedValue == true)
    #expect(store[UserDefaults.Key<Profile?>("default_user")] == Profile(name: "Ada", age: 36))
  }

  @Test func moveTakesKeysToAnotherSuite() throws {
    let source = PreferencesStore.inMemory()
    let destination = PreferencesStore.inMemory()
    source.set(1, forKey: "a")
    source.set("x", forKey: "b")
    try Migrations { Migration(1, .move(["a", "b", "absent"], to: destination)) }.run(on: source)
    #expect(destination.integer(forKey: "a") == 1)
    #expect(destination.string(forKey: "b") == "x")
    #expect(source.object(forKey: "a") == nil)
    #expect(destination.object(forKey: "absent") == nil)
  }

  @Test func versionsMustIncrease() {
    let store = PreferencesStore.inMemory()
    #expect(throws: DefaultsError.self) {
      try Migrations {
        Migration(2, .drop(["a"]))
        Migration(1, .drop(["b"]))
      }.run(on: store)
    }
    #expect(Migrations.version(of: store) == 0)
  }

  @Test func aFailingStepKeepsEarlierStepsAndStopsThere() throws {
    let store = PreferencesStore.inMemory()
    store.set(1, forKey: "a")
    #expect(throws: DefaultsError.self) {
      try Migrations {
        Migration(1, .drop(["a"]))
        Migration(
          2,
          .custom("fails") { _ throws(DefaultsError) in
            throw DefaultsError(.refusedValue, "no")
          })
      }.run(on: store)
    }
    #expect(Migrations.version(of: store) == 1)
    #expect(store.object(forKey: "a") == nil)
  }

  @Test func migrationsWorkOnFoundationInstances() throws {
    let suite = TestSuite()
    suite.defaults.set("v", forKey: "old")
    try Migrations { Migration(1, .rename("old", to: "new")) }.run(on: suite.defaults)
    #expect(suite.defaults.string(forKey: "new") == "v")
    #expect(Migrations.version(of: suite.defaults) == 1)
  }

  // MARK: Several processes

  private func counts(_ directory: TemporaryDirectory) throws -> [Int] {
    let store = try PreferencesStore(suiteName: "migrated", directory: directory.path)
    return (1...4).map { store.integer(forKey: "ran.\($0)") } + [Migrations.version(of: store)]
  }

  @Test("A run killed inside a step is finished by the next run; no step runs twice", .linuxFiles)
  func interruptedRunIsFinishedByTheNext() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let child = try RunningChild(
      "UserDefaultTestHelper", ["migrate", "migrated", "hang-in-3"], environment: environment)
    // Kill the child once it announces it is inside step 3.
    #expect(child.readUntil("in step 3").contains("in step 3"))
    child.stop(abruptly: true)
    #expect(try counts(directory) == [1, 1, 0, 0, 2], "steps 1 and 2 were on disk; 3 was not")

    let rerun = try ChildProcess.run(
      "UserDefaultTestHelper", ["migrate", "migrated", "normal"], environment: environment)
    #expect(rerun.output.contains("applied [3, 4]"), "\(rerun.output) \(rerun.error)")
    #expect(try counts(directory) == [1, 1, 1, 1, 4])
  }

  @Test("Two processes migrating at once run each step once", .linuxFiles)
  func concurrentRunsRunEachStepOnce() throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let children = try (0..<2).map { _ in
      try RunningChild(
        "UserDefaultTestHelper", ["migrate", "migrated", "normal"], environment: environment)
    }
    for child in children { _ = child.finish() }
    #expect(children.allSatisfy { $0.process.terminationStatus == 0 })
    #expect(try counts(directory) == [1, 1, 1, 1, 4])
  }
}
