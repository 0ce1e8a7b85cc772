// Measures the library against raw Foundation UserDefaults in one process and one run,
// and prints ns/op (median of repetitions, with min and max) and the ratio library/raw.
//
//   swift run -c release UserDefaultBenchmarks            full run
//   swift run -c release UserDefaultBenchmarks --short    few iterations (CI: keeps it compiling)
import Foundation
import Synchronization
import UserDefault

struct Profile: Codable, Sendable {
  var name: String
  var age: Int
  var tags: [String]
}

let short = CommandLine.arguments.contains("--short")
let repetitions = short ? 3 : 7
let sizes = short ? [10, 1_000] : [10, 1_000, 100_000]

func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// ns per operation: median, min and max over repetitions of `iterations` calls.
func measure(_ iterations: Int, _ body: () -> Void) -> (median: Double, min: Double, max: Double) {
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let start = nowNanoseconds()
    for _ in 0..<iterations { body() }
    samples.append(Double(nowNanoseconds() - start) / Double(iterations))
  }
  samples.sort()
  return (samples[samples.count / 2], samples.first!, samples.last!)
}

func row(
  _ name: String, _ size: Int, library: (median: Double, min: Double, max: Double),
  raw: (median: Double, min: Double, max: Double)
) {
  let text = String(
    format: "%@ %7d  lib %10.0f [%8.0f..%8.0f]  raw %11.0f [%9.0f..%9.0f]  ratio %.4f",
    name as NSString, size, library.median, library.min, library.max, raw.median, raw.min, raw.max,
    library.median / raw.median)
  print(text)
}

let scratch = NSTemporaryDirectory() + "UserDefaultBenchmarks-\(UUID().uuidString)"
try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }
FoundationSaving.isEnabled = false  // raw Foundation writes are not saved either

let floorLock = Mutex<[String: Any]>(["k": 1])
let floor = measure(short ? 1_000 : 200_000) { _ = floorLock.withLock { $0["k"] as? Int } }
print(String(format: "floor (lock + dictionary lookup): %.0f ns", floor.median))
print(
  "benchmark                       keys  library ns [min..max]           raw ns [min..max]              library/raw"
)

let profile = Profile(name: "Ada", age: 36, tags: ["a", "b"])
let encoder = JSONEncoder()
let decoder = JSONDecoder()

for size in sizes {
  let suite = "bench-\(size)-\(UUID().uuidString)"
  let raw = UserDefaults(suiteName: suite)!
  let store = try PreferencesStore(
    suiteName: suite, directory: scratch, flushWindow: .seconds(3600))
  var filler: [String: Any] = [:]
  for index in 0..<size { filler["filler.\(index)"] = index }
  raw.setPersistentDomain(filler, forName: suite)
  store.setPersistentDomain(filler, forName: suite)

  let intKey = UserDefaults.Key<Int>("int", default: 0)
  let profileKey = UserDefaults.Key<Profile?>("profile")
  raw.set(42, forKey: "int")
  store[intKey] = 42
  raw.set(try encoder.encode(profile), forKey: "profile")
  store[profileKey] = profile
  let reads = short ? 200 : (size >= 100_000 ? 2_000 : 50_000)
  let writes = short ? 50 : (size >= 100_000 ? 200 : 5_000)

  row(
    "Int read", size,
    library: measure(reads) { _ = store[intKey] },
    raw: measure(reads) { _ = raw.integer(forKey: "int") })
  row(
    "Codable read (3 fields)", size,
    library: measure(reads) { _ = store[profileKey] },
    raw: measure(reads / 10) {
      _ = try? decoder.decode(Profile.self, from: raw.data(forKey: "profile") ?? Data())
    })
  var counter = 0
  row(
    "Int write", size,
    library: measure(writes) {
      counter += 1
      store[intKey] = counter
    },
    raw: measure(writes) {
      counter += 1
      raw.set(counter, forKey: "int")
    })
  row(
    "Codable write", size,
    library: measure(writes) {
      counter += 1
      store[profileKey] = Profile(name: "x", age: counter, tags: [])
    },
    raw: measure(writes) {
      counter += 1
      raw.set(try? encoder.encode(Profile(name: "x", age: counter, tags: [])), forKey: "profile")
    })
  let afterWrite = short ? 5 : (size >= 100_000 ? 5 : 200)
  row(
    "read right after a write", size,
    library: measure(afterWrite) {
      counter += 1
      store[intKey] = counter
      _ = store[intKey]
    },
    raw: measure(afterWrite) {
      counter += 1
      raw.set(counter, forKey: "int")
      _ = raw.integer(forKey: "int")
    })
  let durable = short ? 2 : (size >= 100_000 ? 3 : 20)
  let rawFile = UserDefaults(suiteName: "\(suite)-raw")!
  rawFile.setPersistentDomain(filler, forName: "\(suite)-raw")
  row(
    "durable write (write + flush)", size,
    library: measure(durable) {
      counter += 1
      store[intKey] = counter
      try? store.flush()
    },
    raw: measure(durable) {
      counter += 1
      rawFile.set(counter, forKey: "int")
      rawFile.synchronize()
    })
  rawFile.removePersistentDomain(forName: "\(suite)-raw")
  raw.removePersistentDomain(forName: suite)
}
if short { print("short mode: too few iterations for stable medians; figures are not meaningful") }
