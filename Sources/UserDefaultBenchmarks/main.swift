// Measures the library against raw Foundation `UserDefaults` in one process and one run,
// prints ns/op (median of the repetitions, with min and max) and the ratio library/raw,
// and writes the results as CSV and as an SVG chart of cost against suite size.
//
//   swift run -c release UserDefaultBenchmarks                 full run (10, 1,000, 100,000 keys)
//   swift run -c release UserDefaultBenchmarks --short         a few iterations (CI: keeps it compiling)
//   swift run -c release UserDefaultBenchmarks --output DIR    where results.csv and results.svg go
//                                                              (default .build/benchmarks)
//   swift run -c release UserDefaultBenchmarks --peers         the peers' protocol alone
//                                                              (PeersProtocol, about 15 s)
import Foundation
import PropertyListCodec
import SafeDefaultsKit
import Synchronization  // availability: checked (its one use sits under #available)
import UserDefault

struct Profile: Codable, Equatable, Sendable {
  var name: String
  var age: Int
  var email: String
}

/// The enum-keyed front door on a store.
struct StoreDefaults: SafeDefaults {
  enum Keys: String, DefaultsKey {
    case int = "safe.int"
  }
  let userDefaults: UserDefaults
}

/// The two string-keyed property wrappers on a store.
struct Wrapped {
  @UserDefault var attribute: Int
  @UserDefaultsWrapper var wrapper: Int

  init(_ store: UserDefaults) {
    _attribute = UserDefault("wrapped.attribute", defaultValue: 0, defaults: store)
    _wrapper = UserDefaultsWrapper(key: "wrapped.wrapper", default: 0, userDefaults: store)
  }
}

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == Contention.childFlag { Contention.runChild(arguments) }
let short = arguments.contains("--short")
let peersOnly = arguments.contains("--peers")
let outputDirectory =
  arguments.firstIndex(of: "--output").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
  }
  ?? ".build/benchmarks"
let sizes = short ? [10, 1_000] : [10, 1_000, 100_000]
// The library's saving of Foundation suites stays on, as users run it: each write pays
// for recording its key and queueing the save; the save itself runs untimed between
// repetitions (raw Foundation calls save nothing).
let stopwatch = Stopwatch(
  repetitions: short ? 3 : 7, repetitionBudget: short ? 200_000 : 40_000_000,
  settle: { FoundationSaving.saveNow() })

// Foundation takes its preferences directory from the environment the process starts
// with, and cannot load a large suite other than from its file (setPersistentDomain and
// set are quadratic on Linux). So the benchmark writes every suite's file into a scratch
// directory, then runs itself again with XDG_CONFIG_HOME and HOME pointing there: no real
// user's preferences are read or written, and raw Foundation starts from a full file (on
// Apple platforms, where cfprefsd reads no such file, from its values: RawSuite).
let scratchVariable = "USERDEFAULT_BENCHMARK_SCRATCH"
guard let scratch = ProcessInfo.processInfo.environment[scratchVariable] else {
  #if os(macOS) || os(Linux) || os(Windows)
    let scratch = NSTemporaryDirectory() + "UserDefaultBenchmarks-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    // The status is taken inside a scope of its own and the process exits after it: `exit`
    // never returns, so a `defer` beside it would leave the directory behind.
    let status: Int32
    do {
      defer { try? FileManager.default.removeItem(atPath: scratch) }
      for size in Set(sizes + [PeersProtocol.fillerKeys]) {
        var filler: [String: Any] = [:]
        for index in 0..<size { filler["filler.\(index)"] = index }
        let data = try PropertyListSerialization.data(
          fromPropertyList: filler, format: .xml, options: 0)
        var suites = ["raw-\(size)", "store-\(size)"]
        if size == PeersProtocol.fillerKeys { suites.append(PeersProtocol.suiteName) }
        for suite in suites {
          _ = FileManager.default.createFile(atPath: scratch + "/\(suite).plist", contents: data)
        }
      }
      let child = Process()
      child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
      child.arguments = Array(CommandLine.arguments.dropFirst())
      child.environment = ProcessInfo.processInfo.environment.merging(
        [scratchVariable: scratch, "XDG_CONFIG_HOME": scratch, "HOME": scratch]) { $1 }
      try child.run()
      child.waitUntilExit()
      status = child.terminationStatus
    }
    exit(status)
  #else
    // No Process on iOS, tvOS, watchOS and visionOS: the benchmark cannot run itself again.
    print("UserDefaultBenchmarks: not available on this platform")
    exit(1)
  #endif
}

// The suites' files as the parent wrote them, before any row writes to them: the cold
// open rows copy them.
let pristine = Dictionary(
  uniqueKeysWithValues: sizes.map {
    ($0, FileManager.default.contents(atPath: scratch + "/raw-\($0).plist")!)
  })

let report = Report()
/// The floor: one lock and one dictionary lookup, what a store read cannot go below.
let floorRead: () -> Void
if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
  let floorLock = Mutex<[String: Int]>(["int": 42])
  floorRead = { consume(floorLock.withLock { $0["int"] }) }
} else {  // Apple platforms before Synchronization: the same floor through NSLock
  let floorLock = NSLock()
  let floorTable = ["int": 42]
  floorRead = { consume(floorLock.withLock { floorTable["int"] }) }
}
let floorTiming = stopwatch.time(floorRead)
report.printHeader(floor: floorTiming)

// The peers' protocol first, on a suite no other row has touched: every surface on a
// Foundation instance against the thin key the peer libraries are.
do {
  let peers = RawSuite.named(PeersProtocol.suiteName, in: scratch)
  precondition(peers.integer(forKey: "filler.1") == 1, "peers' suite not loaded")
  PeersProtocol.run(
    on: peers, rounds: short ? 3 : 7, repetitionBudget: short ? 200_000 : 30_000_000,
    report: report)
}
if peersOnly {
  report.printWarnings()
  RawSuite.removeAll()
  exit(0)
}

let encoder = JSONEncoder()
let decoder = JSONDecoder()
let profile = Profile(name: "Ada Lovelace", age: 36, email: "ada@example.com")
let profiles = (0..<100).map { Profile(name: "Person \($0)", age: $0, email: "p\($0)@example.com") }
var counter = 0
var perObserverCost: Double?
/// A durable write to a 10-key suite, binary and XML file: the fixed part of the cost.
var durableAtTen: (binary: Timing, xml: Timing)?

for size in sizes {
  // Both suites start from the same file of `size` integers, written before this process
  // started; the first reads load them.
  let raw = RawSuite.named("raw-\(size)", in: scratch)
  let store = try PreferencesStore(
    suiteName: "store-\(size)", directory: scratch, flushWindow: .seconds(3600))
  precondition(raw.integer(forKey: "filler.1") == (size > 1 ? 1 : 0), "raw suite not loaded")
  precondition(store.integer(forKey: "filler.1") == (size > 1 ? 1 : 0), "store not loaded")

  let intKey = UserDefaults.Key<Int>("int", default: 0)
  let otherKey = UserDefaults.Key<Int>("other", default: 0)
  let stringKey = UserDefaults.Key<String>("string", default: "")
  let profileKey = UserDefaults.Key<Profile?>("profile")
  let profilesKey = UserDefaults.Key<[Profile]>("profiles", default: [])
  store[intKey] = 42
  store[otherKey] = 7
  store[stringKey] = "a preference string"
  store[profileKey] = profile
  store[profilesKey] = profiles
  raw.set(42, forKey: "int")
  raw.set(7, forKey: "other")
  raw.set("a preference string", forKey: "string")
  raw.set(try encoder.encode(profile), forKey: "profile")
  raw.set(try encoder.encode(profiles), forKey: "profiles")
  // The library on the Foundation instance itself (its own keys, JSON strings).
  let foundationProfileKey = UserDefaults.Key<Profile?>("profile.json")
  raw[foundationProfileKey] = profile

  func add(
    _ name: String, rawLabel: String = "UserDefaults", library: () -> Void, raw: () -> Void
  ) {
    report.add(
      ResultRow(
        benchmark: name, size: size, stopwatch.compare(library, raw), rawLabel: rawLabel))
  }

  add(
    "Int read", library: { consume(store[intKey]) },
    raw: { consume(raw.integer(forKey: "int")) })
  add(
    "String read", library: { consume(store[stringKey]) },
    raw: { consume(raw.string(forKey: "string")) })
  add(
    "Int read vs floor", rawLabel: "lock + dictionary lookup", library: { consume(store[intKey]) },
    raw: floorRead)
  add(
    "String read vs floor", rawLabel: "lock + dictionary lookup",
    library: { consume(store[stringKey]) }, raw: floorRead)

  // The other front doors on the same store, against a typed key of the same stored name:
  // two names sit at different places in the store's hash table (the table's seed differs
  // from one run to the next), which moved single rows by 10 to 15 ns between runs. (The
  // library reports "safe.int", declared by both, as a key collision: expected here.)
  let safeIntKey = UserDefaults.Key<Int>("safe.int", default: 0)
  let attributeKey = UserDefaults.Key<Int>("wrapped.attribute", default: 0)
  let wrapperKey = UserDefaults.Key<Int>("wrapped.wrapper", default: 0)
  let safe = StoreDefaults(userDefaults: store)
  safe.set(42, forKey: .int)
  let wrapped = Wrapped(store)
  wrapped.attribute = 42
  wrapped.wrapper = 42
  add(
    "SafeDefaults Int read", rawLabel: "typed key read, same store",
    library: { consume(safe.integer(forKey: .int)) }, raw: { consume(store[safeIntKey]) })
  add(
    "SafeDefaults Int write", rawLabel: "typed key write, same store",
    library: {
      counter += 1
      safe.set(counter, forKey: .int)
    },
    raw: {
      counter += 1
      store[safeIntKey] = counter
    })
  add(
    "@UserDefault string key Int read", rawLabel: "typed key read, same store",
    library: { consume(wrapped.attribute) }, raw: { consume(store[attributeKey]) })
  add(
    "@UserDefault string key Int write", rawLabel: "typed key write, same store",
    library: {
      counter += 1
      wrapped.attribute = counter
    },
    raw: {
      counter += 1
      store[attributeKey] = counter
    })
  add(
    "UserDefaultsWrapper Int read", rawLabel: "typed key read, same store",
    library: { consume(wrapped.wrapper) }, raw: { consume(store[wrapperKey]) })
  add(
    "UserDefaultsWrapper Int write", rawLabel: "typed key write, same store",
    library: {
      counter += 1
      wrapped.wrapper = counter
    },
    raw: {
      counter += 1
      store[wrapperKey] = counter
    })

  add(
    "Codable read (3 fields)", rawLabel: "UserDefaults read + JSON decode",
    library: { consume(store[profileKey]) },
    raw: {
      consume(try? decoder.decode(Profile.self, from: raw.data(forKey: "profile") ?? Data()))
    })
  add(
    "[Codable] read (100 elements)", rawLabel: "UserDefaults read + JSON decode",
    library: { consume(store[profilesKey]) },
    raw: {
      consume(try? decoder.decode([Profile].self, from: raw.data(forKey: "profiles") ?? Data()))
    })
  add(
    "Int write",
    library: {
      counter += 1
      store[intKey] = counter
    },
    raw: {
      counter += 1
      raw.set(counter, forKey: "int")
    })
  add(
    "Codable write", rawLabel: "JSON encode + UserDefaults set",
    library: {
      counter += 1
      store[profileKey] = Profile(name: "Ada", age: counter, email: "ada@example.com")
    },
    raw: {
      counter += 1
      raw.set(
        try? encoder.encode(Profile(name: "Ada", age: counter, email: "ada@example.com")),
        forKey: "profile")
    })
  add(
    "read right after a write",
    library: {
      counter += 1
      store[intKey] = counter
      consume(store[otherKey])
    },
    raw: {
      counter += 1
      raw.set(counter, forKey: "int")
      consume(raw.integer(forKey: "other"))
    })
  let durable = stopwatch.compare(
    {
      counter += 1
      store[intKey] = counter
      try? store.flush()
    },
    {
      counter += 1
      raw.set(counter, forKey: "int")
      raw.synchronize()
    })
  report.add(
    ResultRow(
      benchmark: "durable write (write + flush)", size: size, durable,
      rawLabel: "UserDefaults set + synchronize"))
  let updateKey = UserDefaults.Key<Int>("updated", default: 0)
  let updates = stopwatch.compare(
    { _ = try? store.update(updateKey) { $0 += 1 } },
    {
      counter += 1
      store[intKey] = counter
      try? store.flush()
    })
  report.add(
    ResultRow(
      benchmark: "update, uncontended", size: size, updates,
      rawLabel: "write + flush, same store"))
  if size == 10 {
    // What remains of a durable write once the two fsyncs it must make (file, then
    // directory) are taken out, each measured alone on a file of the store's size.
    let fileSize =
      (try? FileManager.default.attributesOfItem(atPath: scratch + "/store-\(size).plist")[.size]
        as? Int) ?? 0
    let fsyncs = fsyncAlone(
      directory: scratch, size: fileSize, repetitions: stopwatch.repetitions,
      iterations: short ? 2 : 40)
    report.add(
      ResultRow(
        benchmark: "fsync of file + directory alone", size: size, library: fsyncs,
        raw: durable.raw, rawLabel: "UserDefaults set + synchronize"))
    report.add(
      ResultRow(
        benchmark: "durable write less its fsyncs", size: size,
        library: subtracting(fsyncs, from: durable.library), raw: durable.raw,
        rawLabel: "UserDefaults set + synchronize"))

    // Group commit: eight threads each write and flush at once, against one write and
    // flush; a flush that finds another in progress is served by the next replacement.
    let crew = Crew(count: 8)
    // UserDefaults is thread-safe but not Sendable; the crew's threads share the store.
    nonisolated(unsafe) let sharedStore = store
    let threadKeys = (0..<8).map { UserDefaults.Key<Int>("thread.\($0)", default: 0) }
    let group = compareOnce(
      repetitions: short ? 3 : 15,
      { repetition in
        crew.run { thread in
          sharedStore[threadKeys[thread]] = repetition * 8 + thread + 1
          try? sharedStore.flush()
        }
      },
      { _ in
        counter += 1
        store[intKey] = counter
        try? store.flush()
      })
    report.add(
      ResultRow(
        benchmark: "8 threads write + flush at once", size: size, library: group.library,
        raw: group.raw, rawLabel: "one write + flush"))
  }

  // The library on a Foundation instance (the default): what it adds to the raw call.
  add(
    "Foundation instance: Int read", library: { consume(raw[intKey]) },
    raw: { consume(raw.integer(forKey: "int")) })
  add(
    "Foundation instance: Int write",
    library: {
      counter += 1
      raw[intKey] = counter
    },
    raw: {
      counter += 1
      raw.set(counter, forKey: "int")
    })
  // The string-key front doors on the Foundation instance, against its raw `set` of the
  // same stored name.
  let foundationWrapped = Wrapped(raw)
  add(
    "Foundation instance: @UserDefault string key Int write",
    library: {
      counter += 1
      foundationWrapped.attribute = counter
    },
    raw: {
      counter += 1
      raw.set(counter, forKey: "wrapped.attribute")
    })
  add(
    "Foundation instance: UserDefaultsWrapper Int write",
    library: {
      counter += 1
      foundationWrapped.wrapper = counter
    },
    raw: {
      counter += 1
      raw.set(counter, forKey: "wrapped.wrapper")
    })
  // Foundation's `set` against itself: how far this machine moves a ratio of equal work,
  // the yardstick for the write rows above.
  add(
    "Foundation instance: Int write against itself", rawLabel: "UserDefaults (the same call)",
    library: {
      counter += 1
      raw.set(counter, forKey: "int")
    },
    raw: {
      counter += 1
      raw.set(counter, forKey: "int")
    })
  add(
    "Foundation instance: Codable read", rawLabel: "UserDefaults read + JSON decode",
    library: { consume(raw[foundationProfileKey]) },
    raw: {
      consume(
        try? decoder.decode(
          Profile.self, from: Data((raw.string(forKey: "profile.json") ?? "").utf8)))
    })

  // The file writers: a file of `size` keys of mixed types (integers, strings, reals,
  // dates), binary against XML, reported per key. Dates are whole seconds: XML cannot
  // hold a fraction (its writer would decline, and the file be written as binary).
  let mixed = Dictionary(
    uniqueKeysWithValues: (0..<size).map { index -> (String, Any) in
      let value: Any =
        switch index % 4 {
        case 0: index
        case 1: "value \(index)"
        case 2: Double(index) / 3
        default: Date(timeIntervalSinceReferenceDate: Double(index))
        }
      return ("key.\(index)", value)
    })
  let writers = stopwatch.compare(
    { consume(PropertyListBinaryWriter.data(for: mixed)) },
    { consume(PropertyListXMLWriter.data(for: mixed)) })
  report.add(
    ResultRow(
      benchmark: "binary file writer, per key", size: size, writers.perKey(of: size),
      rawLabel: "the library's XML writer, same values"))

  // A durable write to a suite of `size` keys whose file is binary, against the same write
  // to one whose file is XML (files keep their format); per key over the cost at 10 keys,
  // which is the write's fixed part (two fsyncs, the lock).
  let binaryStore = try PreferencesStore(
    suiteName: "durable-binary-\(size)", directory: scratch, flushWindow: .seconds(3600),
    format: .binary)
  let xmlStore = try PreferencesStore(
    suiteName: "durable-xml-\(size)", directory: scratch, flushWindow: .seconds(3600),
    format: .xml)
  for (name, value) in mixed {
    binaryStore.set(value, forKey: name)
    xmlStore.set(value, forKey: name)
  }
  try binaryStore.flush()
  try xmlStore.flush()
  let formats = stopwatch.compare(
    {
      counter += 1
      binaryStore[intKey] = counter
      try? binaryStore.flush()
    },
    {
      counter += 1
      xmlStore[intKey] = counter
      try? xmlStore.flush()
    })
  if let base = durableAtTen {
    report.add(
      ResultRow(
        benchmark: "durable write, binary file, per key over 10 keys", size: size,
        library: (subtracting(base.binary, from: formats.library)).perKey(of: size),
        raw: (subtracting(base.xml, from: formats.raw)).perKey(of: size),
        rawLabel: "the same, XML file"))
  } else {
    durableAtTen = (formats.library, formats.raw)
  }

  // Observation: delivery to 1,000 observers of one key, against the same write unobserved.
  if size == 1_000 {
    func storeWrite() {
      counter += 1
      store[intKey] = counter
    }
    let unobserved = stopwatch.time(storeWrite)
    let observations = (0..<1_000).map { _ in store.observe(intKey) { consume($0.newValue) } }
    let observed = stopwatch.time(storeWrite)
    report.add(
      ResultRow(
        benchmark: "Int write, 1,000 observers", size: size, library: observed, raw: unobserved,
        rawLabel: "same write, 0 observers"))
    perObserverCost = (observed.median - unobserved.median) / 1_000
    for observation in observations { observation.cancel() }
  }

}

// Cold open: a store of a file this process never opened, to its first read, against
// Foundation's first read of a fresh suite file. Each sample opens its own copy of the
// file (one file store per file per process); the copies are made untimed, and both
// sides read them warm from the page cache.
let blobKey = UserDefaults.Key<Data>("blob", default: Data())
let blobFile = try PropertyListSerialization.data(
  fromPropertyList: ["blob": Data(repeating: 0x5a, count: 10_000_000)], format: .xml, options: 0)
for (label, size, contents) in sizes.filter({ $0 > 10 }).map({
  ("cold open to first read", $0, pristine[$0]!)
}) + [("cold open, one 10 MB Data", 1, blobFile)] {
  let firstKey = UserDefaults.Key<Int>("filler.1", default: -1)
  let prefix = "cold-\(size)-\(contents.count)"
  let timings = compareOnce(
    repetitions: stopwatch.repetitions,
    prepare: { index in
      for side in ["store", "raw"] {
        _ = FileManager.default.createFile(
          atPath: scratch + "/\(prefix)-\(side)-\(index).plist", contents: contents)
      }
    },
    { index in
      let store = try! PreferencesStore(
        suiteName: "\(prefix)-store-\(index)", directory: scratch, flushWindow: .seconds(3600))
      if size == 1 { consume(store[blobKey]) } else { consume(store[firstKey]) }
    },
    { index in
      let raw = RawSuite.named("\(prefix)-raw-\(index)", in: scratch)
      if size == 1 {
        consume(raw.data(forKey: "blob"))
      } else {
        consume(raw.integer(forKey: "filler.1"))
      }
    })
  report.add(
    ResultRow(
      benchmark: label, size: size, library: timings.library, raw: timings.raw,
      rawLabel: "UserDefaults: first read of a fresh suite"))
}

// The search list: a read that falls through the suite's file to the global domain
// (`.GlobalPreferences.plist`), against a read of the suite's own key in the same store.
// The store sits in a directory of its own: a global file in the scratch directory would
// put a lower domain under every other row's stores.
do {
  let globalDirectory = scratch + "/global-domain"
  try FileManager.default.createDirectory(
    atPath: globalDirectory, withIntermediateDirectories: true)
  try PropertyListSerialization.data(
    fromPropertyList: ["global.int": 42], format: .binary, options: 0
  ).write(to: URL(fileURLWithPath: globalDirectory + "/.GlobalPreferences.plist"))
  let store = try PreferencesStore(
    suiteName: "searching", directory: globalDirectory, flushWindow: .seconds(3600))
  let ownKey = UserDefaults.Key<Int>("own.int", default: 0)
  let globalKey = UserDefaults.Key<Int>("global.int", default: 0)
  store[ownKey] = 7
  precondition(store[globalKey] == 42, "global domain not read")
  let reads = stopwatch.compare({ consume(store[globalKey]) }, { consume(store[ownKey]) })
  report.add(
    ResultRow(
      benchmark: "Int read from the global domain", size: 1, reads,
      rawLabel: "the suite's own key, same store"))
}

// Cold open of a binary file against the same values in an XML file (both the library's
// store; the binary one as a Mac writes it, by Foundation's writer), to the first read, and
// to the first write, which makes the dictionary a binary file's open leaves for later;
// per key, the open's fixed part included (the same for both formats, and most of the cost
// at 1,000 keys, hence more samples there). The stores written to are flushed after the
// row, untimed, so that none is held by its pending flush into the rows after it.
for size in sizes.filter({ $0 > 10 }) {
  let xml = pristine[size]!
  let values = try PropertyListSerialization.propertyList(from: xml, format: nil)
  let binary = try PropertyListSerialization.data(
    fromPropertyList: values, format: .binary, options: 0)
  let firstKey = UserDefaults.Key<Int>("filler.1", default: -1)
  for thenWrite in [false, true] {
    let prefix = "cold-format-\(thenWrite)-\(size)"
    var written: [PreferencesStore] = []
    /// Opens the store of one side's copy `index`, reads, and writes when the row asks.
    func open(_ side: String, _ index: Int) {
      let store = try! PreferencesStore(
        suiteName: "\(prefix)-\(side)-\(index)", directory: scratch, flushWindow: .seconds(3600))
      consume(store[firstKey])
      if thenWrite {
        store[firstKey] = 2
        written.append(store)
      }
    }
    let timings = compareOnce(
      repetitions: stopwatch.repetitions * (size <= 1_000 ? 3 : 1),
      prepare: { index in
        _ = FileManager.default.createFile(
          atPath: scratch + "/\(prefix)-binary-\(index).plist", contents: binary)
        _ = FileManager.default.createFile(
          atPath: scratch + "/\(prefix)-xml-\(index).plist", contents: xml)
      },
      { open("binary", $0) }, { open("xml", $0) })
    for store in written { try store.flush() }
    written.removeAll()
    report.add(
      ResultRow(
        benchmark: thenWrite
          ? "cold open to first write, binary file, per key" : "cold open, binary file, per key",
        size: size, library: timings.library.perKey(of: size),
        raw: timings.raw.perKey(of: size), rawLabel: "the same values, XML file"))
  }
}

// Resident memory held by a freshly loaded suite of the largest size, per key: the
// process's resident set before and after the first read, free heap handed back first.
if let largest = sizes.last {
  for side in ["store", "raw"] {
    _ = FileManager.default.createFile(
      atPath: scratch + "/memory-\(side).plist", contents: pristine[largest]!)
  }
  let before = residentBytes()
  let memoryStore = try PreferencesStore(
    suiteName: "memory-store", directory: scratch, flushWindow: .seconds(3600))
  precondition(memoryStore.integer(forKey: "filler.1") == 1, "memory store not loaded")
  let middle = residentBytes()
  let memoryRaw = RawSuite.named("memory-raw", in: scratch)
  precondition(memoryRaw.integer(forKey: "filler.1") == 1, "memory suite not loaded")
  let after = residentBytes()
  func bytes(_ count: Int) -> Timing {
    let perKey = Double(count) / Double(largest)
    return Timing(median: perKey, min: perKey, max: perKey, iterations: 1, warning: nil)
  }
  report.add(
    ResultRow(
      benchmark: "resident memory, bytes per key", size: largest, library: bytes(middle - before),
      raw: bytes(after - middle), rawLabel: "UserDefaults holding the same suite (bytes, not ns)"))
  withExtendedLifetime((memoryStore, memoryRaw)) {}
}

// Four processes updating one counter of one store at once, against one process alone.
let contenders = short ? 20 : 250
let together = try Contention.updatesPerSecond(processes: 4, count: contenders, directory: scratch)
let alone = try Contention.updatesPerSecond(processes: 1, count: contenders, directory: scratch)
precondition(together.final == 4 * contenders, "contending updates lost: \(together.final)")
emit(
  String(
    format: "update, 4 processes on one store: %.0f updates/s in all (1 process alone: %.0f/s)",
    together.rate, alone.rate))

if let perObserverCost {
  emit(
    String(format: "delivery to 1,000 observers of one key: %.0f ns per observer", perObserverCost))
}
report.printWarnings()
if short { emit("short mode: too few iterations for stable medians; figures are not meaningful") }

try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
let csvPath = outputDirectory + "/results.csv"
let svgPath = outputDirectory + "/results.svg"
try report.csv().write(toFile: csvPath, atomically: true, encoding: .utf8)
try report.svg(benchmarks: [
  "Int read", "String read", "Codable read (3 fields)", "[Codable] read (100 elements)",
  "Int write",
  "Codable write", "read right after a write", "durable write (write + flush)",
]).write(toFile: svgPath, atomically: true, encoding: .utf8)
emit("wrote \(csvPath) and \(svgPath)")
RawSuite.removeAll()
