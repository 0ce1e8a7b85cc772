import Dispatch
import Testing

@testable import UserDefault

@Suite("Monotonic condition")
struct MonotonicConditionTests {
  /// A deadline computed on one clock and waited on with another returns at once (a
  /// monotonic deadline read as wall-clock time is in 1970) or waits for hours.
  @Test(
    "A timed wait with no broadcast lasts its time, on the monotonic clock",
    .timeLimit(.minutes(1)))
  func timedWaitLastsItsTime() {
    let condition = MonotonicCondition()
    condition.lock()
    let start = DispatchTime.now().uptimeNanoseconds
    var waits = 0
    // Spurious wake-ups are allowed (hence the loop), but not thousands of them.
    while DispatchTime.now().uptimeNanoseconds - start < 2_000_000 {
      condition.wait(nanoseconds: 2_000_000)
      waits += 1
    }
    condition.unlock()
    #expect(waits <= 10, "\(waits) waits returned before 2 ms had passed")
  }
}
