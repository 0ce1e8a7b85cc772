import Foundation
import Observation
import Testing

@testable import UserDefault

/// `update(_:_:)` and `transaction(_:)` in one process, on every backend, each through
/// one object of a suite and read through a second.
@Suite("Updates and transactions")
struct UpdateTests {
  @Test(
    "update starts from the stored value, writes the result and returns it",
    arguments: BackendKind.allCases)
  func updateWritesAndReturns(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let count = UserDefaults.Key<Int>(uniqueKey(), default: 10)
    #expect(try a.update(count) { $0 += 1 } == 11)
    #expect(try b.update(count) { $0 *= 2 } == 22)
    #expect(a[count] == 22 && b[count] == 22)
    let list = UserDefaults.Key<[String]>(uniqueKey(), default: [])
    for file in ["a", "b", "c", "d"] {
      try a.update(list) { files in
        files.insert(file, at: 0)
        files = Array(files.prefix(3))
      }
    }
    #expect(b[list] == ["d", "c", "b"])
    withExtendedLifetime(keepAlive) {}
  }

  @Test("a body that throws writes nothing and tells nobody", arguments: BackendKind.allCases)
  func throwingBodyWritesNothing(_ kind: BackendKind) throws {
    struct Refused: Error {}
    let (a, b, keepAlive) = kind.makeSuite()
    let first = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let second = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    a[first] = 1
    let heard = Recorder<String>()
    let observations = [
      b.observe(first) { _ in heard.append("first") },
      b.observe(second) { _ in heard.append("second") },
    ]
    #expect(throws: Refused.self) {
      try a.transaction { t in
        t[first] = 5
        t[second] = 5
        throw Refused()
      }
    }
    #expect(throws: Refused.self) { try a.update(first) { _ in throw Refused() } }
    #expect(b[first] == 1 && b[second] == 0 && !b.hasStoredValue(second))
    #expect(heard.all.isEmpty)
    withExtendedLifetime((keepAlive, observations)) {}
  }

  @Test(
    "observers hear each changed key once, with old and new; an equal write tells nobody",
    arguments: BackendKind.allCases)
  func observersHearEachChangeOnce(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let balance = UserDefaults.Key<Int>(uniqueKey(), default: 100)
    let purchases = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let heard = Recorder<String>()
    let observations = [
      b.observe(balance) { heard.append("balance \($0.oldValue)->\($0.newValue)") },
      b.observe(purchases) { heard.append("purchases \($0.oldValue)->\($0.newValue)") },
    ]
    try a.transaction { t in
      t[balance] -= 30
      t[balance] -= 5  // written twice, told once
      t[purchases] += 1
    }
    #expect(heard.all.sorted() == ["balance 100->65", "purchases 0->1"])
    try a.update(balance) { $0 += 0 }
    try a.transaction { t in t[purchases] = 1 }
    #expect(heard.all.count == 2, "an equal write was announced: \(heard.all)")
    withExtendedLifetime((keepAlive, observations)) {}
  }

  @Test(
    "a transaction reads its own writes and returns what its body returns",
    arguments: BackendKind.allCases)
  func transactionReadsItsOwnWrites(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let name = UserDefaults.Key<String?>(uniqueKey())
    let total = try a.transaction { t -> Int in
      #expect(t[name] == nil)
      t[name] = "Ada"
      #expect(t[name] == "Ada")
      return 7
    }
    #expect(total == 7 && b[name] == "Ada")
    try a.transaction { t in t[name] = nil }
    #expect(!b.hasStoredValue(name))
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "a registered default is an update's starting value; the result is the suite's own",
    arguments: BackendKind.allCases)
  func registeredDefaultIsTheStart(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let name = uniqueKey()
    let count = UserDefaults.Key<Int>(name, default: 0)
    a.register(defaults: [name: 41])
    #expect(try a.update(count) { $0 += 1 } == 42)
    b.removeObject(forKey: name)
    #expect(b[count] == 41, "the write went to the registered domain")
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "a value that cannot be stored makes the transaction write nothing",
    arguments: BackendKind.allCases)
  func refusedValueWritesNothing(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let good = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let badName = UserDefaults.Key<Int>("bad\u{1}name", default: 0)
    let error = #expect(throws: DefaultsError.self) {
      try a.transaction { t in
        t[good] = 1
        t[badName] = 2
      }
    }
    #expect(error?.kind == .invalidKey)
    #expect(b[good] == 0)
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "a nested update of the same suite is refused with an error naming the suite; the outer one goes on or ends",
    arguments: BackendKind.allCases)
  func nestedUpdateIsRefused(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let outer = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let inner = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    // Caught: the outer update goes on and writes.
    var caught: DefaultsError?
    try a.update(outer) { value in
      do {
        try b.update(inner) { $0 += 1 }
      } catch let error as DefaultsError {
        caught = error
      }
      value += 1
    }
    #expect(caught?.kind == .nestedUpdate)
    let suiteName = a.backend.context.name ?? "standard"
    #expect(caught?.message.contains(suiteName) == true, "\(caught?.message ?? "")")
    #expect(b[outer] == 1 && b[inner] == 0)
    // Not caught: the outer update ends with it and writes nothing.
    let error = #expect(throws: DefaultsError.self) {
      try a.transaction { t in
        t[outer] = 50
        try b.transaction { u in u[inner] = 50 }
      }
    }
    #expect(error?.kind == .nestedUpdate)
    #expect(b[outer] == 1 && b[inner] == 0)
    // A migration inside an update is refused the same way.
    let migrations = Migrations([Migration(1, .rename(uniqueKey(), to: uniqueKey()))])
    try a.update(outer) { _ in
      #expect(throws: DefaultsError.self) { try migrations.run(on: b) }
    }
    withExtendedLifetime(keepAlive) {}
  }

  @Test(
    "a write through a transaction after its body returned is refused",
    arguments: BackendKind.allCases)
  func writeAfterTheBodyIsRefused(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let count = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let kept = try a.transaction { t in t }
    kept[count] = 9
    #expect(b[count] == 0)
    withExtendedLifetime(keepAlive) {}
  }

  /// Where a value an update cannot read comes from: the suite's own (a new user's
  /// `defaults write MyApp launchCount many` before the README's counter), or registered,
  /// which is not the suite's own and is there again once the key is removed.
  enum Planted: String, CaseIterable, CustomTestStringConvertible {
    case own, registered
    var testDescription: String { rawValue }
  }

  /// A plain read's report says the stored value is left as it is; an update's write
  /// replaces it, or is stored over it.
  @Test(
    "a value an update cannot read is reported as what its write does to it",
    arguments: BackendKind.allCases, Planted.allCases)
  func unreadableValueIsReportedAsWhatTheWriteDoes(_ kind: BackendKind, _ planted: Planted)
    throws
  {
    let (a, b, keepAlive) = kind.makeSuite()
    let name = uniqueKey()
    let count = UserDefaults.Key<Int>(name, default: 0)
    switch planted {
    case .own: a.set("many", forKey: name)
    case .registered: a.register(defaults: [name: "many"])
    }
    #expect(try a.update(count) { $0 += 1 } == 1)
    #expect(b[count] == 1)
    let messages = Diagnostics.events(forKey: name).map(\.message)
    #expect(messages.count == 1)
    let consequence =
      planted == .own
      ? "a write of the key in the transaction replaces the stored value"
      : "a write of the key in the transaction stores the suite's own value over it"
    #expect(
      messages.first?.hasSuffix(
        "the transaction starts from the default instead, " + consequence) == true,
      "\(messages)")
    #expect(!messages.contains { $0.contains("left as it is") })
    a.removeObject(forKey: name)
    #expect(a.string(forKey: name) == (planted == .own ? nil : "many"))
    withExtendedLifetime(keepAlive) {}
  }

  /// The standard suite gives way to a task's scoped default, chosen when the transaction
  /// starts: a scope opened inside its body must not make it read one suite and write
  /// another.
  @Test("a transaction reads the suite it locked, whatever scope its body opens")
  func transactionReadsTheSuiteItLocked() throws {
    let locked = PreferencesStore.inMemory(suiteName: "locked")
    let other = PreferencesStore.inMemory(suiteName: "other")
    let count = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    locked[count] = 7
    other[count] = 100
    try UserDefaults.withDefault(locked) {
      try UserDefaults.standard.transaction { t in
        UserDefaults.withDefault(other) { t[count] += 1 }
      }
    }
    #expect(locked[count] == 8)
    #expect(other[count] == 100)
  }

  @Test(
    "a key a transaction read is tracked by the Observation framework, as a plain read's is",
    arguments: BackendKind.allCases)
  func transactionReadsAreTracked(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let count = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let fired = Counter()
    let read = withObservationTracking {
      (try? a.transaction { t in t[count] }) ?? -1
    } onChange: {
      fired.increment()
    }
    #expect(read == 0)
    b[count] = 5
    #expect(fired.value == 1)
    withExtendedLifetime(keepAlive) {}
  }

  @Test("8 threads × 250 updates in one process count to 2,000", arguments: BackendKind.allCases)
  func threadsCountExactly(_ kind: BackendKind) throws {
    let (a, b, keepAlive) = kind.makeSuite()
    let count = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let failures = Counter()
    // UserDefaults is thread-safe but not Sendable; the threads share the two objects.
    nonisolated(unsafe) let objects = [a, b]
    let finished = DispatchSemaphore(value: 0)
    for index in 0..<8 {
      Thread {
        for _ in 0..<250 {
          do { try objects[index % 2].update(count) { $0 += 1 } } catch { failures.increment() }
        }
        finished.signal()
      }.start()
    }
    for _ in 0..<8 {
      #expect(finished.wait(timeout: .now() + 120) == .success, "a thread did not finish")
    }
    #expect(failures.value == 0)
    #expect(a[count] == 2_000 && b[count] == 2_000)
    withExtendedLifetime(keepAlive) {}
  }
}
