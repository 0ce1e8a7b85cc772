import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Measurements that the stopwatch's loop cannot make: an operation that can run only once
// per prepared file (a cold open), one that needs several threads at once (group commit),
// the cost of fsync alone, and resident memory.

/// Times two one-shot operations, `repetitions` samples each, interleaved (library, raw,
/// library, …); `prepare(i)` runs before sample `i` of both sides, untimed.
func compareOnce(
  repetitions: Int, prepare: (Int) -> Void = { _ in }, _ library: (Int) -> Void,
  _ raw: (Int) -> Void
) -> (library: Timing, raw: Timing) {
  var librarySamples: [Double] = []
  var rawSamples: [Double] = []
  for index in 0..<repetitions {
    prepare(index)
    // The side that runs first after `prepare` pays for the memory it leaves behind (a
    // cold open of a binary file run first was 158 ns a key against XML's 129, and 135
    // against 181 run second): the order alternates, so neither side always pays.
    if index.isMultiple(of: 2) {
      librarySamples.append(elapsed { library(index) })
      rawSamples.append(elapsed { raw(index) })
    } else {
      rawSamples.append(elapsed { raw(index) })
      librarySamples.append(elapsed { library(index) })
    }
  }
  return (oneShotTiming(librarySamples), oneShotTiming(rawSamples))
}

func elapsed(_ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  body()
  return Double(DispatchTime.now().uptimeNanoseconds - start)
}

/// The timing of samples of one call each (median, min, max).
func oneShotTiming(_ samples: [Double], warning: String? = nil) -> Timing {
  let sorted = samples.sorted()
  var warning = warning
  if warning == nil && sorted.count >= 5 && sorted.last! > 3 * sorted.first! {
    warning = "max is more than 3x min: the machine was busy"
  }
  return Timing(
    median: sorted[sorted.count / 2], min: sorted.first!, max: sorted.last!, iterations: 1,
    warning: warning)
}

/// `timing` less `part`, sample by sample at the median, min and max.
func subtracting(_ part: Timing, from timing: Timing) -> Timing {
  Timing(
    median: timing.median - part.median, min: timing.min - part.min, max: timing.max - part.max,
    iterations: timing.iterations, warning: timing.warning ?? part.warning)
}

/// Eight (or `count`) threads started once and parked; ``run(_:)`` releases them all at
/// once and returns when each has run its job, so a sample times the jobs, not thread
/// creation.
final class Crew: @unchecked Sendable {
  // `job` is only read or written while holding `lock`.
  private let lock = NSLock()
  private var job: @Sendable (Int) -> Void = { _ in }
  private let starts: [DispatchSemaphore]
  private let done = DispatchSemaphore(value: 0)

  init(count: Int) {
    starts = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    for index in 0..<count {
      let thread = Thread { [self] in
        while true {
          starts[index].wait()
          let job = lock.withLock { self.job }
          job(index)
          done.signal()
        }
      }
      thread.start()
    }
  }

  func run(_ job: @escaping @Sendable (Int) -> Void) {
    lock.withLock { self.job = job }
    for start in starts { start.signal() }
    for _ in starts { done.wait() }
  }
}

/// What fsync costs alone, as a durable write pays it: a file of `size` bytes written
/// (untimed), its fsync (timed), renamed over another (untimed), the directory's fsync
/// (timed). ns per replacement, `repetitions` samples of `iterations` each.
func fsyncAlone(directory: String, size: Int, repetitions: Int, iterations: Int) -> Timing {
  let bytes = [UInt8](repeating: 0x61, count: size)
  let target = directory + "/fsync-probe.bin"
  var samples: [Double] = []
  for _ in 0..<repetitions {
    var total = 0.0
    for iteration in 0..<iterations {
      let temporary = directory + "/fsync-probe.tmp-\(iteration)"
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      total += elapsed { _ = fsync(descriptor) }
      close(descriptor)
      rename(temporary, target)
      let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY)
      total += elapsed { _ = fsync(directoryDescriptor) }
      close(directoryDescriptor)
    }
    samples.append(total / Double(iterations))
  }
  unlink(target)
  return oneShotTiming(samples)
}

/// Resident memory of this process in bytes, after handing free heap pages back to the
/// system (so what is measured is what is held, not what a parse left free).
func residentBytes() -> Int {
  #if canImport(Glibc)
    // glibc's malloc_trim, found at run time: Glibc's module map does not export it.
    if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
      _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
    }
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    return (Int(fields.count > 1 ? fields[1] : "0") ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
    var info = rusage()
    getrusage(RUSAGE_SELF, &info)
    return Int(info.ru_maxrss)
  #endif
}
