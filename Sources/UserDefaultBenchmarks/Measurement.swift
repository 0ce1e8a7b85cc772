import Foundation

/// The timing of one operation: ns per call over several repetitions.
struct Timing {
  let median: Double
  let min: Double
  let max: Double
  let iterations: Int
  /// Why the median may not be stable, when it may not.
  let warning: String?

  /// The timing per key of an operation on `keys` keys.
  func perKey(of keys: Int) -> Timing {
    let count = Double(keys)
    return Timing(
      median: median / count, min: min / count, max: max / count, iterations: iterations,
      warning: warning)
  }
}

/// Times operations: each repetition runs the operation enough times to last about
/// `repetitionBudget` (found by a calibration run), and the median repetition is kept.
struct Stopwatch {
  let repetitions: Int
  let repetitionBudget: Double  // nanoseconds
  /// Run untimed after each repetition and calibration run: finishes work a repetition
  /// queued in the background (the library's saves), so that it is neither timed in the
  /// next repetition nor left to compete with it. What a write does to queue that work
  /// stays timed.
  var settle: () -> Void = {}
  /// A repetition shorter than this is dominated by clock granularity and scheduling.
  static let shortestStable: Double = 1_000_000

  func time(maxIterations: Int = 1_000_000, _ body: () -> Void) -> Timing {
    let iterations = calibrate(body, maxIterations: maxIterations)
    let samples = (0..<repetitions).map { _ in run(iterations, body) }
    return timing(samples, iterations: iterations)
  }

  /// Times two operations with their repetitions interleaved in pairs, so that a busy spell
  /// of the machine falls on both sides rather than on one. Each pair runs in the other
  /// order from the last (library then raw, then raw then library), so that neither side
  /// always runs first, nor always right after the library's save (the settle).
  func compare(
    _ library: () -> Void, _ raw: () -> Void, maxIterations: Int = 1_000_000
  ) -> Comparison {
    let libraryIterations = calibrate(library, maxIterations: maxIterations)
    let rawIterations = calibrate(raw, maxIterations: maxIterations)
    var librarySamples: [Double] = []
    var rawSamples: [Double] = []
    for pair in 0..<repetitions {
      if pair.isMultiple(of: 2) {
        librarySamples.append(run(libraryIterations, library))
        rawSamples.append(run(rawIterations, raw))
      } else {
        rawSamples.append(run(rawIterations, raw))
        librarySamples.append(run(libraryIterations, library))
      }
    }
    let ratios = zip(librarySamples, rawSamples).map { library, raw in
      (library / Double(libraryIterations)) / (raw / Double(rawIterations))
    }
    return Comparison(
      library: timing(librarySamples, iterations: libraryIterations),
      raw: timing(rawSamples, iterations: rawIterations),
      pairedRatio: ratios.sorted()[ratios.count / 2])
  }

  /// How many calls fill about a repetition budget (at least one, at most the cap). A
  /// first call may load or rebuild a cache that later calls reuse, so it is not counted;
  /// the calibration runs twice and keeps the larger count, so one slow call (a page
  /// fault, a preemption) cannot shrink every repetition to a single call.
  func calibrate(_ body: () -> Void, maxIterations: Int) -> Int {
    body()
    var best = 1
    for _ in 0..<2 {
      var iterations = 1
      while iterations < maxIterations {
        let elapsed = run(iterations, body)
        if elapsed >= repetitionBudget / 4 {
          // Scale to the budget from what this run measured.
          let perCall = elapsed / Double(iterations)
          iterations = Swift.max(iterations, Int(repetitionBudget / perCall))
          break
        }
        iterations = Swift.min(maxIterations, iterations * 4)
      }
      best = Swift.max(best, Swift.min(iterations, maxIterations))
    }
    return best
  }

  func timing(_ elapsed: [Double], iterations: Int) -> Timing {
    let shortest = elapsed.min() ?? 0
    let samples = elapsed.map { $0 / Double(iterations) }.sorted()
    var warning: String?
    if samples.count < 5 {
      warning = "only \(samples.count) repetitions (at least 5 are needed for a stable median)"
    } else if shortest < Self.shortestStable {
      warning = String(
        format: "a repetition lasted %.2f ms (< 1 ms): too few iterations for a stable median",
        shortest / 1e6)
    } else if samples.last! > 3 * samples.first! {
      warning = "max is more than 3x min: the machine was busy"
    }
    return Timing(
      median: samples[samples.count / 2], min: samples.first!, max: samples.last!,
      iterations: iterations, warning: warning)
  }

  func run(_ iterations: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { body() }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    settle()
    return elapsed
  }
}

/// Keeps results alive so the optimizer cannot drop the calls that made them.
@inline(never)
func consume<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Writes a line to standard output at once, so rows show as they are measured even when
/// the output is a file or a pipe.
func emit(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
