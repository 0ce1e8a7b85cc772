import Foundation
import SafeDefaultsKit
import Testing
import UserDefaultTesting

@testable import PropertyListCodec
@testable import UserDefault

extension UserDefaults.Keys {
  fileprivate static let isolatedCount = Key<Int>("isolated.count", default: 0)
  fileprivate static let isolatedName = Key<String>("isolated.name", default: "none")
}

/// A front door that does not choose its instance: it uses the library's default.
private struct IsolatedSafeDefaults: SafeDefaults {
  enum Keys: String, DefaultsKey { case level = "isolated.level" }
}

/// A model written as apps write them: it takes the default when given nothing.
private struct CounterModel {
  @UserDefault("isolated.wrapped", defaultValue: 0) var wrapped: Int
  @UserDefaultsWrapper(key: "isolated.legacy", default: 0) var legacy: Int
  let defaults: UserDefaults

  init(defaults: UserDefaults = .standard) { self.defaults = defaults }

  func bump() { defaults[.isolatedCount] += 1 }
}

/// Every surface through the default, in parallel tests: each sees only its own writes.
@Suite(".isolatedDefaults: each test has its own default", .isolatedDefaults)
struct IsolatedDefaultsTests {
  /// Writes `number` through every surface that uses the default and reads it back.
  private func useEverySurface(_ number: Int) async {
    let standard = UserDefaults.standard
    #expect(standard[.isolatedCount] == 0, "a fresh store: nothing from another test")
    #expect(standard.isDefaultValue(.isolatedCount))
    #expect(UserDefaults.libraryDefault !== standard)

    let observed = Lock<[Int]>([])
    let observation = standard.observe(.isolatedCount) { change in
      observed.withLock { $0.append(change.newValue) }
    }
    let model = CounterModel()
    for _ in 0..<number { model.bump() }
    model.wrapped = number
    model.legacy = number * 2
    standard[.isolatedName] = "test \(number)"
    let safe = IsolatedSafeDefaults()
    safe.set(number, forKey: .level)

    #expect(standard[.isolatedCount] == number)
    #expect(model.wrapped == number && model.legacy == number * 2)
    #expect(standard[.isolatedName] == "test \(number)")
    #expect(safe.integer(forKey: .level) == number)
    #expect(UserDefaults.libraryDefault.integer(forKey: "isolated.wrapped") == number)
    #expect(observed.withLock { $0 } == Array(1...max(number, 1)).prefix(number).map { $0 })
    observation.cancel()

    // Async sequences and child tasks see the same store.
    async let child = UserDefaults.standard[.isolatedName]
    #expect(await child == "test \(number)")
    var updates = standard.updates(.isolatedCount).makeAsyncIterator()
    #expect(await updates.next() == number)

    standard.reset(.isolatedCount, .isolatedName)
    #expect(standard.isDefaultValue(.isolatedCount) && standard[.isolatedName] == "none")
  }

  @Test("Every surface through the default, 40 arguments in parallel", arguments: 1...40)
  func everySurface(number: Int) async {
    await useEverySurface(number)
  }

  @Test("A test that is not parameterized has its own store too")
  func plainTest() async {
    await useEverySurface(7)
  }

  @Test("Nothing reaches the standard suite's file or Foundation's own storage")
  func nothingReachesTheStandardSuite() {
    UserDefaults.standard[.isolatedCount] = 99
    // Foundation's own call is not redirected, so it shows where the write did not go.
    #expect(UserDefaults.standard.object(forKey: "isolated.count") == nil)
    #expect(UserDefaults.libraryDefault.integer(forKey: "isolated.count") == 99)
  }

  @Test("A diagnostic the test expects is taken by its own handler, not another test's")
  func expectedDiagnostic() {
    let events = Lock<[DefaultsDiagnostic]>([])
    UserDefaults.libraryDefault.set("not a number", forKey: "isolated.count")
    let collect: DefaultsDiagnostics.Handler = { event in events.withLock { $0.append(event) } }
    let value = DefaultsDiagnostics.withHandler(collect) { UserDefaults.standard[.isolatedCount] }
    #expect(value == 0)
    let seen = events.withLock { $0 }
    #expect(seen.count == 1 && seen.first?.kind == .wrongType)
    #expect(seen.first?.key == "isolated.count")
  }

  @Test("An unexpected diagnostic fails the test, naming its kind and key")
  func unexpectedDiagnosticFails() {
    UserDefaults.libraryDefault.set("not a number", forKey: "isolated.count")
    withKnownIssue {
      _ = UserDefaults.standard[.isolatedCount]
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("wrongType") && text.contains("isolated.count")
    }
  }
}

/// `withDefault` itself, outside the trait.
@Suite("withDefault: a scoped default")
struct ScopedDefaultTests {
  @Test("Scopes nest, reach child tasks, and end with their operation")
  func scopesNest() async {
    let outer = PreferencesStore.inMemory(suiteName: "outer")
    let inner = PreferencesStore.inMemory(suiteName: "inner")
    await UserDefaults.withDefault(outer) {
      UserDefaults.standard[.isolatedCount] = 1
      await UserDefaults.withDefault(inner) {
        UserDefaults.standard[.isolatedCount] = 2
        async let child = UserDefaults.standard[.isolatedCount]
        let grouped = await withTaskGroup(of: Int.self) { group in
          for _ in 0..<4 { group.addTask { UserDefaults.standard[.isolatedCount] } }
          return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await child == 2)
        #expect(grouped == [2, 2, 2, 2])
        #expect(UserDefaults.libraryDefault === inner)
      }
      #expect(UserDefaults.standard[.isolatedCount] == 1)
      #expect(UserDefaults.libraryDefault === outer)
    }
    #expect(outer[.isolatedCount] == 1 && inner[.isolatedCount] == 2)
    #expect(UserDefaults.libraryDefault !== outer)
  }

  @Test("A detached task does not inherit the scope")
  func detachedTaskDoesNotInherit() async {
    let scratch = PreferencesStore.inMemory(suiteName: "detached")
    await UserDefaults.withDefault(scratch) {
      let scoped = ObjectIdentifier(scratch)
      let seen = await Task.detached { ObjectIdentifier(UserDefaults.libraryDefault) == scoped }
        .value
      #expect(!seen)
    }
  }

  @Test("A synchronous scope redirects the typed path of .standard and returns its result")
  func synchronousScope() throws {
    let scratch = PreferencesStore.inMemory(suiteName: "sync")
    let result = try UserDefaults.withDefault(scratch) { () throws -> Int in
      UserDefaults.standard[.isolatedCount] = 5
      return UserDefaults.standard[.isolatedCount]
    }
    #expect(result == 5 && scratch[.isolatedCount] == 5)
  }

  @Test("Two scoped diagnostic handlers in parallel each receive only their own events")
  func parallelHandlers() async {
    await withTaskGroup(of: [String].self) { group in
      for index in 0..<2 {
        group.addTask {
          let events = Lock<[String]>([])
          let scratch = PreferencesStore.inMemory(suiteName: "handler \(index)")
          scratch.set("text", forKey: "wrong.\(index)")
          DefaultsDiagnostics.withHandler({ event in
            events.withLock { $0.append(event.key ?? "") }
          }) {
            _ = scratch[UserDefaults.Key<Int>("wrong.\(index)", default: 0)]
          }
          return events.withLock { $0 }
        }
      }
      var all: [[String]] = []
      for await events in group { all.append(events) }
      #expect(all.sorted { $0.first ?? "" < $1.first ?? "" } == [["wrong.0"], ["wrong.1"]])
    }
  }
}
