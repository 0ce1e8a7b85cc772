// A child process for the tests: writes values through the library in one process and
// reads them back in another, so that round trips are checked across a restart.
//
//   UserDefaultTestHelper write <suite>   writes every sample, exits normally (no synchronize)
//   UserDefaultTestHelper read <suite>    prints "<name> ok" or "<name> MISMATCH <details>"
//   UserDefaultTestHelper set <suite> <key> <int>   writes one Int through a typed key
//   (and more: each command's comment says what it does)
import DefaultEntry
import Foundation
import Observation
import SafeDefaultsKit
import UserDefault

enum Mode: String, Codable { case light, dark }
struct Profile: Codable, Equatable {
  var name: String
  var age: Int
  var tags: [String]
}

/// A count raised from any thread (diagnostics handlers run where the problem was met).
final class Counter: @unchecked Sendable {
  private let lock = NSLock()  // guards `count`, which nothing touches outside it
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// An `@Observable` model holding a preference, as the README shows one.
@Observable final class WatchedModel {
  @ObservationIgnored @UserDefault var value: Int
  init(_ key: UserDefaults.Key<Int>, _ defaults: UserDefaults) {
    _value = UserDefault(key, defaults: defaults)
  }
}

/// Milliseconds since it was started, read from any thread.
final class Stopwatch: @unchecked Sendable {
  private let lock = NSLock()  // guards `start`, which nothing touches outside it
  private var start = ContinuousClock.now
  func restart() { lock.withLock { start = .now } }
  var milliseconds: Int64 {
    let elapsed = ContinuousClock.now - lock.withLock { start }
    return Int64(elapsed / .milliseconds(1))
  }
}

/// Waits until the property-list file at `path` holds `value` under `key`: `false` if 20 s
/// pass first. Polls, since the write it waits for is made by a background save.
func waitUntilFile(at path: String, holds value: Int, forKey key: String) -> Bool {
  let deadline = ContinuousClock.now + .seconds(20)
  while ContinuousClock.now < deadline {
    if fileValues(at: URL(fileURLWithPath: path))[key] as? Int == value { return true }
    usleep(5_000)
  }
  return false
}

extension UserDefaults {
  /// Makes this instance's writes durable: the store's flush, or the library's save of a
  /// Foundation suite.
  func flushToDisk() throws {
    if let store = self as? PreferencesStore { return try store.flush() }
    guard FoundationSaving.saveNow() else { throw CocoaError(.fileWriteUnknown) }
  }
}

/// One sample value: how to write it and whether a fresh read gives it back exactly.
struct Sample {
  let name: String
  let write: (UserDefaults) -> Void
  let check: (UserDefaults) -> String?
}

/// The key is made by the caller, where its value type is known: a key's initializer takes
/// only types the library can store, which a generic `Value` is not known to be.
/// `toTheBit`: the text must match too, so `-0.0` is not taken for `0.0` (for numbers and
/// dates, whose text is stable; not for sets, whose order is not).
func sample<Value: Equatable & Sendable>(
  _ key: UserDefaults.Key<Value>, _ value: Value, toTheBit: Bool = false
) -> Sample {
  Sample(
    name: key.name, write: { $0[key] = value },
    check: { defaults in
      let read = defaults[key]
      let equal = read == value || "\(read)" == "\(value)" && "\(value)" == "nan"
      return equal && (!toTheBit || "\(read)" == "\(value)") ? nil : "wrote \(value), read \(read)"
    })
}

/// A date with a fraction of a second, as `Date()` gives.
let moment = Date(timeIntervalSinceReferenceDate: 752_000_123.456_789)

let samples: [Sample] = [
  sample(.init("bool", default: false), true),
  sample(.init("string", default: ""), "héllo\nworld"),
  sample(.init("data", default: Data()), Data([0, 1, 2, 255])),
  sample(
    .init("date", default: Date.distantPast),
    Date(timeIntervalSinceReferenceDate: 123_456_789.123_456)),
  sample(
    .init("webURL", default: URL(string: "about:blank")!),
    URL(string: "https://example.com/a?q=1#f")!),
  sample(
    .init("fileURL", default: URL(string: "about:blank")!),
    URL(fileURLWithPath: "/tmp/some file.txt")),
  sample(.init("uuid", default: UUID()), UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
  sample(.init("decimal", default: 0), Decimal(string: "1.1")!),
  sample(.init("int", default: 0), Int.max),
  sample(.init("intMin", default: 0), Int.min),
  sample(.init("int8", default: 0), Int8.min),
  sample(.init("int16", default: 0), Int16.min),
  sample(.init("int32", default: 0), Int32.max),
  sample(.init("int64", default: 0), Int64.min),
  sample(.init("uint", default: 0), UInt.max),
  sample(.init("uint8", default: 0), UInt8.max),
  sample(.init("uint16", default: 0), UInt16.max),
  sample(.init("uint32", default: 0), UInt32.max),
  sample(.init("uint64", default: 0), UInt64.max),
  sample(.init("float", default: 0), Float(0.1), toTheBit: true),
  sample(.init("double", default: 0), 0.1 + 0.2),
  sample(.init("negativeZero", default: 1), -0.0, toTheBit: true),
  sample(.init("moment", default: .distantFuture), moment, toTheBit: true),
  sample(.init("distantPast", default: .now), Date.distantPast, toTheBit: true),
  sample(.init("distantFuture", default: .now), Date.distantFuture, toTheBit: true),
  sample(
    .init("before1970", default: .now), Date(timeIntervalSince1970: -0.25), toTheBit: true),
  sample(
    .init("dates", default: []),
    [moment, .distantPast, .distantFuture, Date(timeIntervalSince1970: -0.25)]),
  sample(
    .init("datesByName", default: [:]),
    ["moment": moment, "zero": Date(timeIntervalSinceReferenceDate: -0.0)]),
  sample(.init("negativeZeros", default: []), [-0.0, 0.0, -0.0]),
  sample(
    .init("decimal29", default: 0), Decimal(string: "12345678901234567890.123456789")!,
    toTheBit: true),
  sample(
    .init("escapedURL", default: URL(string: "about:blank")!),
    URL(string: "https://example.com/a%20b/%C3%A9?q=a%26b&r=1#frag%20x")!),
  sample(.init("infinity", default: 0), -Double.infinity),
  sample(.init("nan", default: 0), Double.nan),
  sample(.init("intArray", default: []), [1, 2, 3]),
  sample(.init("stringSet", default: []), Set(["a", "b"])),
  sample(.init("dictionary", default: [:]), ["a": 1.5, "b": -0.0]),
  sample(.init("mode", default: .light), Mode.dark),
  sample(.init("modes", default: []), [Mode.dark, .light]),
  sample(
    .init("profile", default: Profile(name: "", age: 0, tags: [])),
    Profile(name: "Ada", age: 36, tags: ["x"])),
  sample(.init("profiles", default: []), [Profile(name: "B", age: 1, tags: [])]),
  sample(.init("optionalInt", default: nil), Int?.some(7)),
]

extension UserDefaults {
  @DefaultEntry("flag", default: false) var argumentFlag: Bool
  @DefaultEntry("count", default: -1) var argumentCount: Int
  @DefaultEntry("ratio", default: -1.0) var argumentRatio: Double
  @DefaultEntry("name", default: "none") var argumentName: String
  @DefaultEntry("list", default: ["none"]) var argumentList: [String]
}

enum Level: Int, Sendable {
  case low = 1
  case high = 2
}
struct Point: Codable, Sendable { var x: Int }

/// Enum keys over the library's default instance (the type chooses none).
struct ArgumentDefaults: SafeDefaults {
  enum Keys: String, DefaultsKey { case flag, count, ratio, name, list }
}

/// Prints what every surface reads for the search list's five sample keys, one line per
/// surface and key: `<surface> <key> <value>`. Every surface uses the library's default
/// instance: Foundation's standard suite, or the library's store for it.
func printSearchList() {
  let flagKey = UserDefaults.Key<Bool>("flag", default: false)
  let countKey = UserDefaults.Key<Int>("count", default: -1)
  let ratioKey = UserDefaults.Key<Double>("ratio", default: -1)
  let nameKey = UserDefaults.Key<String>("name", default: "none")
  let listKey = UserDefaults.Key<[String]>("list", default: ["none"])
  let defaults = UserDefaults.libraryDefault
  func line(_ surface: String, _ values: [Any]) {
    for (name, value) in zip(["flag", "count", "ratio", "name", "list"], values) {
      print(surface, name, "\(value)")
    }
  }
  line(
    "key",
    [
      defaults[flagKey], defaults[countKey], defaults[ratioKey], defaults[nameKey],
      defaults[listKey],
    ])
  @UserDefault("flag", defaultValue: false) var flag: Bool
  @UserDefault("count", defaultValue: -1) var count: Int
  @UserDefault("ratio", defaultValue: -1) var ratio: Double
  @UserDefault("name", defaultValue: "none") var name: String
  @UserDefault("list", defaultValue: ["none"]) var list: [String]
  line("wrapper", [flag, count, ratio, name, list])
  @UserDefaultsWrapper(key: "flag", default: false) var wrappedFlag: Bool
  @UserDefaultsWrapper(key: "count", default: -1) var wrappedCount: Int
  @UserDefaultsWrapper(key: "ratio", default: -1) var wrappedRatio: Double
  @UserDefaultsWrapper(key: "name", default: "none") var wrappedName: String
  @UserDefaultsWrapper(key: "list", default: ["none"]) var wrappedList: [String]
  line("wrapperClassic", [wrappedFlag, wrappedCount, wrappedRatio, wrappedName, wrappedList])
  let safe = ArgumentDefaults()
  line(
    "safe",
    [
      safe.bool(forKey: .flag), safe.integer(forKey: .count) ?? -1,
      safe.double(forKey: .ratio) ?? -1,
      safe.string(forKey: .name) ?? "none", safe.stringArray(forKey: .list) ?? ["none"],
    ])
  line(
    "entry",
    [
      defaults.argumentFlag, defaults.argumentCount, defaults.argumentRatio, defaults.argumentName,
      defaults.argumentList,
    ])
  @UserDefault(\.argumentFlag) var pathFlag
  @UserDefault(\.argumentCount) var pathCount
  @UserDefault(\.argumentRatio) var pathRatio
  @UserDefault(\.argumentName) var pathName
  @UserDefault(\.argumentList) var pathList
  line("keyPath", [pathFlag, pathCount, pathRatio, pathName, pathList])
  // A RawRepresentable from its raw value's text, a Codable from its JSON text.
  print("raw level", defaults[UserDefaults.Key<Level>("level", default: .low)])
  print("codable point", defaults[UserDefaults.Key<Point>("point", default: Point(x: -1))].x)
  // The launch-argument table's other rows: seconds since 1970, the URL's text, the UUID's,
  // the bytes in hexadecimal.
  let lastRun = defaults[UserDefaults.Key<Date>("lastRun", default: .distantPast)]
  print("date lastRun", lastRun.timeIntervalSince1970)
  print("url site", defaults[UserDefaults.Key<URL>("site", default: URL(string: "about:blank")!)])
  print(
    "uuid id",
    defaults[
      UserDefaults.Key<UUID>(
        "id", default: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)])
  let blob = defaults[UserDefaults.Key<Data>("blob", default: Data())]
  print("data blob", blob.map { String(format: "%02x", $0) }.joined())
}

/// Values an observer was given, from whatever thread told it.
final class Told: @unchecked Sendable {
  // `recorded` is only read or written while holding `lock`.
  private let lock = NSLock()
  private var recorded: [Int] = []
  func append(_ value: Int) { lock.withLock { recorded.append(value) } }
  var values: [Int] { lock.withLock { recorded } }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let defaults = UserDefaults(suiteName: arguments[2]) else {
  FileHandle.standardError.write(
    Data("usage: UserDefaultTestHelper write|read|set <suite> …\n".utf8))
  exit(2)
}

switch arguments[1] {
case "search-list":
  // search-list foundation|store|memory [write]: what the surfaces read (see printSearchList);
  // `write` then writes 7 under "count" and prints what a typed read gives after it;
  // `remove` removes "count" and prints what a typed read gives, and what observers heard.
  // `memory`: an in-memory store as the scoped default, as `.isolatedDefaults` gives a
  // test: it ignores the arguments.
  if arguments[2] == "store" { _ = try? PreferencesStore.makeLibraryDefault() }
  if arguments[2] == "memory" {
    UserDefaults.withDefault(PreferencesStore.inMemory()) { printSearchList() }
  } else {
    printSearchList()
  }
  let countKey = UserDefaults.Key<Int>("count", default: -1)
  if arguments.count > 3 && arguments[3] == "write" {
    let told = Told()
    let observation = UserDefaults.libraryDefault.observe(countKey) { told.append($0.newValue) }
    UserDefaults.libraryDefault[countKey] = 7
    try? (UserDefaults.libraryDefault as? PreferencesStore)?.flush()
    print("after write", UserDefaults.libraryDefault[countKey], "told", told.values)
    observation.cancel()
  }
  if arguments.count > 3 && arguments[3] == "remove" {
    let told = Told()
    let observation = UserDefaults.libraryDefault.observe(countKey) { told.append($0.newValue) }
    UserDefaults.libraryDefault.reset(countKey)
    print("after remove", UserDefaults.libraryDefault[countKey], "told", told.values)
    observation.cancel()
  }
case "library-default":
  // library-default <key>: after makeLibraryDefault(), adds 1 to <key> through the typed
  // `.standard` subscript and 10 through `libraryDefault`, prints what each reads and
  // whether the default is a store, and exits normally (the exit flush saves).
  do {
    try PreferencesStore.makeLibraryDefault()
  } catch {
    print("error \(error)")
    exit(1)
  }
  let hits = UserDefaults.Key<Int>(arguments[2], default: 0)
  UserDefaults.standard[hits] += 1
  UserDefaults.libraryDefault[hits] += 10
  print(
    UserDefaults.standard[hits], UserDefaults.libraryDefault[hits],
    UserDefaults.libraryDefault is PreferencesStore)
case "write":
  for sample in samples { sample.write(defaults) }
  for sample in samples {
    if let problem = sample.check(defaults) {
      print("\(sample.name) MISMATCH-IN-PROCESS \(problem)")
    }
  }
case "read":
  for sample in samples {
    print("\(sample.name) \(sample.check(defaults).map { "MISMATCH \($0)" } ?? "ok")")
  }
case "set" where arguments.count == 5:
  defaults[UserDefaults.Key<Int>(arguments[3], default: 0)] = Int(arguments[4]) ?? 0
case "write-sequence" where arguments.count >= 4:
  // Runs the steps after the suite: `key=value` writes an Int through a typed key,
  // `-key` removes it, `save` saves at once (printing what saveNow() answered), `deferred`
  // waits until the suite's file holds the last write, which only the library's deferred
  // save can have put there (status 3, leaving with _exit, if 20 s pass first; status 2
  // when no write precedes it or XDG_CONFIG_HOME is not set).
  var lastWrite: (key: String, value: Int)?
  for step in arguments.dropFirst(3) {
    if step == "save" {
      print("saved \(FoundationSaving.saveNow())")
    } else if step == "deferred" {
      guard let (key, value) = lastWrite,
        let directory = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
      else { exit(2) }
      let path = directory + "/\(arguments[2]).plist"
      guard waitUntilFile(at: path, holds: value, forKey: key) else { _exit(3) }
    } else if step.hasPrefix("-") {
      defaults[UserDefaults.Key<Int?>(String(step.dropFirst()))] = nil
      lastWrite = nil
    } else if let equals = step.firstIndex(of: "=") {
      let (key, value) = (String(step[..<equals]), Int(step[step.index(after: equals)...]) ?? 0)
      defaults[UserDefaults.Key<Int>(key, default: 0)] = value
      lastWrite = (key, value)
    }
  }
case "set-and-save" where arguments.count == 5:
  // Writes one Int through a typed key and saves at once; prints what saveNow() answered.
  defaults[UserDefaults.Key<Int>(arguments[3], default: 0)] = Int(arguments[4]) ?? 0
  print("saved \(FoundationSaving.saveNow())")
case "store-release" where arguments.count == 6:
  // Writes one Int through a store object without flushing, releases the object, then
  // either returns from main ("exit") or waits until the file holds the value and leaves
  // with _exit, which runs no exit hook ("wait"; status 3 if 20 s pass first): the write
  // must reach the file either way, the second time by the released store's own flush.
  do {
    var path: String?
    do {
      let store = try PreferencesStore(suiteName: arguments[2])
      path = store.filePath
      store[UserDefaults.Key<Int>(arguments[3], default: 0)] = Int(arguments[4]) ?? 0
    }
    if arguments[5] == "wait", let path {
      let held = waitUntilFile(at: path, holds: Int(arguments[4]) ?? 0, forKey: arguments[3])
      _exit(held ? 0 : 3)
    }
  } catch {
    print("error \(error)")
    exit(1)
  }
case "fault-before" where arguments.count == 3:
  // The parent put a fault at the suite's path: open a store, write "after" = 1, flush.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    store.set(1, forKey: "after")
    try store.flush()
  } catch {
    print("error \(error)")
    exit(3)
  }
case "fault-running" where arguments.count == 3:
  // Writes and flushes "k0"…"k4", prints "ready", waits for a line on standard input (the
  // parent puts a fault at the path meanwhile), then writes "after" = 1 and flushes.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    for index in 0..<5 { store.set("v\(index)", forKey: "k\(index)") }
    try store.flush()
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    _ = readLine()
    store.set(1, forKey: "after")
    try store.flush()
  } catch {
    print("error \(error)")
    exit(3)
  }
case "store-write" where arguments.count == 5:
  // Writes <count> keys "<prefix>.<i>" = i through the library's store, flushing as it goes.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    let prefix = arguments[3]
    for index in 0..<(Int(arguments[4]) ?? 0) {
      store[UserDefaults.Key<Int>("\(prefix).\(index)", default: -1)] = index
      if index % 10 == 9 { try store.flush() }
    }
    try store.flush()
  } catch {
    print("error \(error)")
    exit(1)
  }
case "store-loop" where arguments.count == 4:
  // Writes key i = i forever, printing each index once its flush completed (for kill tests).
  do {
    let store = try PreferencesStore(suiteName: arguments[2], flushWindow: .milliseconds(1))
    let prefix = arguments[3]
    var index = 0
    while true {
      store.set(index, forKey: "\(prefix).\(index)")
      try store.flush()
      FileHandle.standardOutput.write(Data("\(index)\n".utf8))
      index += 1
    }
  } catch {
    print("error \(error)")
    exit(1)
  }
case "store-group" where arguments.count == 5:
  // <threads> threads each write key "<prefix>.t<thread>.<i>" = i and flush, forever, at
  // once, printing "<thread> <i>" once that flush returned (for group-commit kill tests).
  do {
    let store = try PreferencesStore(suiteName: arguments[2], flushWindow: .seconds(3600))
    let prefix = arguments[3]
    let output = NSLock()
    for thread in 0..<(Int(arguments[4]) ?? 1) {
      // UserDefaults is thread-safe but not Sendable; the threads share the store.
      nonisolated(unsafe) let shared = store
      Thread {
        var index = 0
        while true {
          shared.set(index, forKey: "\(prefix).t\(thread).\(index)")
          do { try shared.flush() } catch {
            print("error \(error)")
            exit(1)
          }
          output.withLock { FileHandle.standardOutput.write(Data("\(thread) \(index)\n".utf8)) }
          index += 1
        }
      }.start()
    }
    while true { pause() }
  } catch {
    print("error \(error)")
    exit(1)
  }
case "store-wait" where arguments.count == 5:
  // Waits (bounded) until another process makes key <key> hold <value>; prints the delay.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    let key = UserDefaults.Key<Int>(arguments[3], default: -1)
    let expected = Int(arguments[4]) ?? 0
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    let start = Date()
    while store[key] != expected {
      if Date().timeIntervalSince(start) > 10 {
        print("timeout")
        exit(1)
      }
      usleep(1000)
    }
    print("seen after \(Int(Date().timeIntervalSince(start) * 1000)) ms")
  } catch {
    exit(1)
  }
case "store-set-int" where arguments.count == 5:
  // Writes one Int value through the library's store and flushes.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    store.set(Int(arguments[4]) ?? 0, forKey: arguments[3])
    try store.flush()
  } catch {
    exit(1)
  }
case "store-set-string" where arguments.count == 5:
  // Writes one string value through the library's store and flushes.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    store.set(arguments[4], forKey: arguments[3])
    try store.flush()
  } catch {
    exit(1)
  }
case "store-verify" where arguments.count == 5:
  // Checks that keys "<prefix>.<i>" = i for i in 0..<count are all in the store's file.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    let prefix = arguments[3]
    let count = Int(arguments[4]) ?? 0
    let missing = (0..<count).filter { store.object(forKey: "\(prefix).\($0)") as? Int != $0 }
    print(missing.isEmpty ? "ok \(count)" : "missing \(missing.count) of \(count)")
    exit(missing.isEmpty ? 0 : 1)
  } catch {
    exit(1)
  }
case "observe" where arguments.count == 5:
  // Prints "ready", then waits (at most 10 s) for an observer of <key> to be told the Int
  // <value>; prints "observed <value>" or "timeout". For the defaults tool's tests.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    let key = UserDefaults.Key<Int>(arguments[3], default: -1)
    let expected = Int(arguments[4]) ?? 0
    let seen = DispatchSemaphore(value: 0)
    let observation = store.observe(key) { if $0.newValue == expected { seen.signal() } }
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    let result = seen.wait(timeout: .now() + 10)
    observation.cancel()
    print(result == .success ? "observed \(expected)" : "timeout")
    exit(result == .success ? 0 : 1)
  } catch {
    exit(1)
  }
case "watch-outside" where arguments.count == 5:
  // watch-outside <suite> <key> <value>: a Foundation instance of <suite> read by a
  // callback observer, an `updates` sequence and an Observation-tracked read of a model
  // holding `@UserDefault`; prints "ready", then one line as each form is told <key> became
  // the Int <value> ("callback", "sequence", "tracked", each with the milliseconds since
  // "ready"), then "done", or "timeout" after 10 s.
  let instance = UserDefaults(suiteName: arguments[2])!
  let key = UserDefaults.Key<Int>(arguments[3], default: -1)
  let expected = Int(arguments[4]) ?? 0
  let told = DispatchSemaphore(value: 0)
  let start = Stopwatch()
  let tell: @Sendable (String) -> Void = { form in
    FileHandle.standardOutput.write(Data("\(form) \(start.milliseconds)\n".utf8))
    told.signal()
  }
  let observation = instance.observe(key) { if $0.newValue == expected { tell("callback") } }
  let updates = instance.updates(key, initial: false)
  // Detached: top-level code is the main actor's, which waits on the semaphore below.
  let sequence = Task.detached {
    for await value in updates where value == expected {
      tell("sequence")
      return
    }
  }
  let model = WatchedModel(key, instance)
  let tracked = withObservationTracking {
    model.value
  } onChange: {
    tell("tracked")
  }
  guard tracked != expected else { exit(3) }
  start.restart()
  FileHandle.standardOutput.write(Data("ready\n".utf8))
  let results = (0..<3).map { _ in told.wait(timeout: .now() + 10) }
  observation.cancel()
  sequence.cancel()
  print(results.allSatisfy { $0 == .success } && model.value == expected ? "done" : "timeout")
case "watch-during-transaction" where arguments.count == 3:
  // watch-during-transaction <suite>: commits of another process, written here straight to
  // the file of <suite> (XDG_CONFIG_HOME): "a" and "b" = 1, read; = 2, which the file watch
  // brings in (a callback on "a" holds the watch there); = 3, then a transaction reads "b",
  // lets the watch go on, waits until "b" = 2 is announced and reads "b" again. Prints
  // "b <first read> <second read>", or "stuck" when a wait of 10 s ran out.
  func commit(_ value: Int) throws {
    try writeStraightToFile(["a": value, "b": value], suite: arguments[2])
  }
  do {
    try commit(1)
    let defaults = UserDefaults(suiteName: arguments[2])!
    let a = UserDefaults.Key<Int>("a", default: 0)
    let b = UserDefaults.Key<Int>("b", default: 0)
    guard defaults[a] == 1 else { exit(3) }
    let (held, going, heard) = (
      DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
    )
    let holding = defaults.observe(a) { change in
      guard change.newValue == 2 else { return }
      held.signal()
      _ = going.wait(timeout: .now() + 10)
    }
    let hearing = defaults.observe(b) { if $0.newValue == 2 { heard.signal() } }
    try commit(2)
    guard held.wait(timeout: .now() + 10) == .success else {
      print("stuck")
      exit(1)
    }
    try commit(3)
    let reads = try defaults.transaction { t -> (Int, Int)? in
      let first = t[b]
      going.signal()
      guard heard.wait(timeout: .now() + 10) == .success else { return nil }
      return (first, t[b])
    }
    holding.cancel()
    hearing.cancel()
    print(reads.map { "b \($0.0) \($0.1)" } ?? "stuck")
  } catch {
    print("error \(error)")
    exit(1)
  }
case "saved-over" where arguments.count == 3:
  // saved-over <suite>: commits of another process, written here straight to the file of
  // <suite>: "a" = 1 and "z" = 0, read; "z" = 1, which the file watch brings in (a callback
  // on "z" holds the watch there); "a" = 3; then a transaction writes "a" = 10, lets the
  // watch go on, and "z" = 2 is written beside "a" = 10. Once the watch brought "z" = 2,
  // prints "a <value read>", or "stuck" when a wait of 10 s ran out.
  do {
    try writeStraightToFile(["a": 1, "z": 0], suite: arguments[2])
    let defaults = UserDefaults(suiteName: arguments[2])!
    let a = UserDefaults.Key<Int>("a", default: 0)
    let z = UserDefaults.Key<Int>("z", default: 0)
    guard defaults[a] == 1, defaults[z] == 0 else { exit(3) }
    let (held, going, last) = (
      DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
    )
    let holding = defaults.observe(z) { change in
      if change.newValue == 2 { last.signal() }
      guard change.newValue == 1 else { return }
      held.signal()
      _ = going.wait(timeout: .now() + 10)
    }
    try writeStraightToFile(["a": 1, "z": 1], suite: arguments[2])
    guard held.wait(timeout: .now() + 10) == .success else {
      print("stuck")
      exit(1)
    }
    try writeStraightToFile(["a": 3, "z": 1], suite: arguments[2])
    try defaults.transaction { t in t[a] = 10 }
    going.signal()
    try writeStraightToFile(["a": 10, "z": 2], suite: arguments[2])
    guard last.wait(timeout: .now() + 10) == .success else {
      print("stuck")
      exit(1)
    }
    holding.cancel()
    print("a \(defaults[a])")
  } catch {
    print("error \(error)")
    exit(1)
  }
case "write-during-run" where arguments.count == 3:
  // write-during-run <suite>: "a" = 1 written straight to the file of <suite> and read;
  // inside a transaction another thread writes "a" = 2, then the transaction reads "a".
  // Prints "run <transaction's read> after <read after it> file <the file's value>".
  do {
    try writeStraightToFile(["a": 1], suite: arguments[2])
    let defaults = UserDefaults(suiteName: arguments[2])!
    let a = UserDefaults.Key<Int>("a", default: 0)
    guard defaults[a] == 1 else { exit(3) }
    let read = try defaults.transaction { t in
      // Thread-safe, not Sendable: the other thread writes through the same instance.
      nonisolated(unsafe) let shared = defaults
      let written = DispatchSemaphore(value: 0)
      Thread {
        shared[a] = 2
        written.signal()
      }.start()
      written.wait()
      return t[a]
    }
    _ = FoundationSaving.saveNow()
    let file = fileValues(at: suiteFile(arguments[2]))
    print("run \(read) after \(defaults[a]) file \(file["a"] ?? "none")")
  } catch {
    print("error \(error)")
    exit(1)
  }
case "unavailable" where arguments.count == 4:
  // The parent made the file of suite <suite> unreadable to this process. Opens the suite
  // on <backend> ("store": the library's store; "foundation": a Foundation instance, saved
  // by the library), writes "added" = 2 and tries to save it, prints "read <kept> saved
  // <Bool> reports <n>" (what key "kept" reads, whether the save succeeded, how many
  // unavailableFile reports came) and "written". Then waits for a
  // line (the parent makes the file readable meanwhile) and prints "merged <kept>" once the
  // write is saved and (store only) an observer was told that "kept" now reads the file's
  // value; "timeout" after 10 s.
  let reports = Counter()
  DefaultsDiagnostics.handler = { if $0.kind == .unavailableFile { reports.increment() } }
  let kept = UserDefaults.Key<Int>("kept", default: -1)
  let added = UserDefaults.Key<Int>("added", default: -1)
  let isStore = arguments[3] == "store"
  guard
    let defaults: UserDefaults = isStore
      ? try? PreferencesStore(suiteName: arguments[2]) : UserDefaults(suiteName: arguments[2])
  else { exit(1) }
  let seen = DispatchSemaphore(value: 0)
  let observation = defaults.observe(kept) { if $0.newValue != -1 { seen.signal() } }
  defaults[added] = 2
  let saved = (try? defaults.flushToDisk()) != nil  // must fail: nothing may be written yet
  // Unbuffered: the parent acts on these lines while this process waits.
  FileHandle.standardOutput.write(
    Data("read \(defaults[kept]) saved \(saved) reports \(reports.value)\nwritten\n".utf8))
  _ = readLine()
  // The store's poll finds the readable file and merges the held write, telling observers;
  // a Foundation instance's write is saved by the saver's next attempt, or by this one.
  let observed = !isStore || seen.wait(timeout: .now() + 10) == .success
  let merged = observed && (try? defaults.flushToDisk()) != nil
  observation.cancel()
  print(merged ? "merged \(defaults[kept]) reports \(reports.value)" : "timeout")
case "instances" where arguments.count == 4:
  // Makes, uses and drops <count> instances of a UserDefaults subclass (each gets a backend
  // of its own) and as many named instances of <suite>, after a warm-up of 1,000 of each;
  // prints "growth <bytes>": how much the resident set grew after the warm-up (Linux only:
  // read from /proc/self/statm). Alone in its process, so no other test's memory counts.
  #if os(Linux)
    final class OwnStorageDefaults: UserDefaults {}
    let key = UserDefaults.Key<Int>("instances.count", default: 0)
    func useInstances(_ count: Int) {
      for index in 0..<count {
        let own = OwnStorageDefaults(suiteName: arguments[2])!
        own[key] = index
        guard own[key] == index else { exit(1) }
        _ = UserDefaults(suiteName: arguments[2])![key]
      }
    }
    func residentBytes() -> Int {
      let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
      let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
    // A sanitizer's allocator keeps freed memory (the address sanitizer's quarantine) and
    // shadows every byte: resident memory says nothing about the library there.
    if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
      || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    {
      print("growth unmeasured: a sanitizer's allocator")
      exit(0)
    }
    useInstances(1_000)
    let before = residentBytes()
    useInstances(Int(arguments[3])! - 1_000)
    print("growth \(residentBytes() - before)")
  #else
    exit(2)
  #endif
case "synchronize" where arguments.count == 4:
  // synchronize <suite> <foundation|store>: writes every sample, saves it, calls
  // synchronize() twice (Foundation's own, on a Foundation instance: it writes XML and
  // reads it back), prints "<name> MISMATCH-AFTER-SYNC <details>" for each value that
  // changed, and saves again. A later `read` (Foundation) or `exact-read` (store) child
  // checks the file.
  let synchronized: UserDefaults =
    arguments[3] == "store" ? try! PreferencesStore(suiteName: arguments[2]) : defaults
  for sample in samples { sample.write(synchronized) }
  try? synchronized.flushToDisk()
  _ = synchronized.synchronize()
  _ = synchronized.synchronize()
  for sample in samples {
    if let problem = sample.check(synchronized) {
      print("\(sample.name) MISMATCH-AFTER-SYNC \(problem)")
    }
  }
  try? synchronized.flushToDisk()
  print("synchronized")
case "tracked-run" where arguments.count == 3:
  // tracked-run <suite>: a Foundation instance writes 1 under "tracked" and saves it; a
  // reader tracked by the Observation framework reads 1; the file is then given 5, as
  // another process would write it; a run writes 5. Prints "<read> <written> told" when
  // the reader's onChange fired, else "… untold". The file watch or the run brings in
  // the 5, whichever comes first: either way the reader is told.
  let key = UserDefaults.Key<Int>("tracked", default: 0)
  defaults[key] = 1
  try? defaults.flushToDisk()
  let fired = Counter()
  let read = withObservationTracking {
    defaults[key]
  } onChange: {
    fired.increment()
  }
  let file = suiteFile(arguments[2])
  var values = fileValues(at: file)
  values[key.name] = 5
  try! PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
    .write(to: file, options: .atomic)
  let written = try! defaults.update(key) { $0 = 5 }
  print(read, written, fired.value == 1 ? "told" : "untold")
case "migrate-samples" where arguments.count == 4:
  // migrate-samples <suite> <foundation|store>: writes every sample, then migrations move
  // each one to "moved.<name>" and back (Migration.rename, one version each), saves, and
  // prints "migrated <number of versions applied>". A later `read` or `exact-read` child checks the file.
  let migrated: UserDefaults =
    arguments[3] == "store" ? try! PreferencesStore(suiteName: arguments[2]) : defaults
  for sample in samples { sample.write(migrated) }
  let names = samples.map(\.name)
  let away = names.enumerated().map { Migration($0 + 1, .rename($1, to: "moved.\($1)")) }
  let back = names.enumerated().map {
    Migration(names.count + $0 + 1, .rename("moved.\($1)", to: $1))
  }
  let applied = try! Migrations(away + back).run(on: migrated)
  try? migrated.flushToDisk()
  print("migrated \(applied.count)")
case "exact-read" where arguments.count == 3:
  // exact-read <suite>: as `read`, through the library's store of the suite.
  let store = try! PreferencesStore(suiteName: arguments[2])
  for sample in samples {
    print("\(sample.name) \(sample.check(store).map { "MISMATCH \($0)" } ?? "ok")")
  }
case "migrate" where arguments.count == 4:
  // Runs four migrations that each count how often they ran ("ran.<n>" += 1). Mode
  // "hang-in-3" announces step 3 and then waits forever inside it, to be killed.
  do {
    let store = try PreferencesStore(suiteName: arguments[2])
    let hangs = arguments[3] == "hang-in-3"
    func counting(_ version: Int) -> Migration {
      Migration(
        version,
        .custom("count \(version)") { defaults in
          let key = UserDefaults.Key<Int>("ran.\(version)", default: 0)
          defaults[key] += 1
          if version == 3 && hangs {
            FileHandle.standardOutput.write(Data("in step 3\n".utf8))
            while true { pause() }
          }
          usleep(20_000)  // widens the window in which two processes overlap
        })
    }
    let applied = try Migrations((1...4).map(counting)).run(on: store)
    print("applied \(applied)")
  } catch {
    print("error \(error)")
    exit(1)
  }
case "update-counter" where arguments.count == 5:
  // update-counter <store|foundation> <suite> <count>: <count> times `update(.counter)
  // { $0 += 1 }`, then prints "done".
  do {
    let defaults = try suiteObject(arguments[2], arguments[3])
    let counter = UserDefaults.Key<Int>("counter", default: 0)
    for _ in 0..<(Int(arguments[4]) ?? 0) { try defaults.update(counter) { $0 += 1 } }
    print("done")
  } catch {
    print("error \(error)")
    exit(1)
  }
case "update-under-argument" where arguments.count == 7 && arguments[5] == "-counter":
  // update-under-argument <store|foundation> <suite> <update|transaction> -counter <n>:
  // adds one to "counter" in the form named, started with the launch argument `-counter
  // <n>`; prints the value written and what a plain read gives afterwards.
  do {
    let defaults = try suiteObject(arguments[2], arguments[3])
    let counter = UserDefaults.Key<Int>("counter", default: 0)
    let written =
      arguments[4] == "update"
      ? try defaults.update(counter) { $0 += 1 }
      : try defaults.transaction { t in
        t[counter] += 1
        return t[counter]
      }
    print("\(written) \(defaults[counter])")
  } catch {
    print("error \(error)")
    exit(1)
  }
case "read-profile" where arguments.count >= 4:
  // read-profile <store|foundation> <suite> [launch arguments]: reads the Codable key
  // "profile" and prints its name (the default's is "default").
  do {
    let defaults = try suiteObject(arguments[2], arguments[3])
    let key = UserDefaults.Key<Profile>(
      "profile", default: Profile(name: "default", age: 0, tags: []))
    print(defaults[key].name)
  } catch {
    print("error \(error)")
    exit(1)
  }
case "transactions" where arguments.count == 5:
  // transactions <store|foundation> <suite> <count|forever>: two-key transactions ("a"
  // and "b" each += 1), printing the new "a" once each returned (for kill tests).
  do {
    let defaults = try suiteObject(arguments[2], arguments[3])
    let a = UserDefaults.Key<Int>("a", default: 0)
    let b = UserDefaults.Key<Int>("b", default: 0)
    let count = Int(arguments[4]) ?? .max
    for _ in 0..<count {
      let written = try defaults.transaction { t in
        t[a] += 1
        t[b] += 1
        return t[a]
      }
      FileHandle.standardOutput.write(Data("\(written)\n".utf8))
    }
  } catch {
    print("error \(error)")
    exit(1)
  }
case "hold-transaction" where arguments.count == 4:
  // hold-transaction <store|foundation> <suite>: a transaction that writes "a" = 1 and
  // "b" = 1, prints "holding" and waits for a line on standard input before it returns.
  do {
    let defaults = try suiteObject(arguments[2], arguments[3])
    try defaults.transaction { t in
      t[UserDefaults.Key<Int>("a", default: 0)] = 1
      t[UserDefaults.Key<Int>("b", default: 0)] = 1
      FileHandle.standardOutput.write(Data("holding\n".utf8))
      _ = readLine()
    }
    print("committed")
  } catch {
    print("error \(error)")
    exit(1)
  }
default:
  exit(2)
}

/// Writes `values` as the whole file of suite `name` in `XDG_CONFIG_HOME`, replacing it as
/// another process's save does.
func writeStraightToFile(_ values: [String: Int], suite name: String) throws {
  try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
    .write(to: suiteFile(name), options: .atomic)
}

/// The values the property-list file at `file` holds; none if it cannot be read.
func fileValues(at file: URL) -> [String: Any] {
  let data = (try? Data(contentsOf: file)) ?? Data()
  return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    ?? [:]
}

/// The file of suite `name` in `XDG_CONFIG_HOME`.
func suiteFile(_ name: String) -> URL {
  let directory = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? "."
  return URL(fileURLWithPath: directory + "/" + name + ".plist")
}

/// The object of suite `name` of the kind named: a ``PreferencesStore`` or a Foundation
/// instance.
func suiteObject(_ kind: String, _ name: String) throws -> UserDefaults {
  if kind == "store" { return try PreferencesStore(suiteName: name) }
  guard let instance = UserDefaults(suiteName: name) else { throw CocoaError(.fileNoSuchFile) }
  return instance
}
