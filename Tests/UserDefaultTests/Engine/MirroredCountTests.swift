import Foundation
import Testing

@testable import UserDefault

/// The counts a write reads without a lock (``MirroredCount``) under contention: what the
/// locks promised still holds when they are skipped.
@Suite("Counts read without a lock")
struct MirroredCountTests {
  /// A listener registered before a write on the same thread hears it, while other
  /// threads keep the suite's listener count moving between zero and one and write the
  /// same key: the write may find the count zero only if no listener was there.
  @Test(
    "a listener added before a write hears it while other threads add and drop listeners",
    arguments: BackendKind.allCases)
  func aListenerAddedBeforeAWriteHearsIt(_ kind: BackendKind) {
    let (first, second, keepAlive) = kind.makeSuite()
    // UserDefaults is thread-safe but not marked Sendable.
    nonisolated(unsafe) let (writer, observer) = (first, second)
    let key = UserDefaults.Key<Int>(uniqueKey(), default: 0)
    let other = UserDefaults.Key<Int>(uniqueKey("other"), default: 0)
    let missed = Recorder<Int>()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for round in 0..<300 {
        switch thread {
        case 0, 1:
          let mine = (thread + 1) * 1_000_000 + round
          let heard = Recorder<Int>()
          let observation = observer.observe(key) { heard.append($0.newValue) }
          writer[key] = mine
          if !heard.all.contains(mine) { missed.append(mine) }
          observation.cancel()
        case 2:
          let observation = observer.observe(other) { _ in }
          writer[other] = round
          observation.cancel()
        default:
          writer[key] = -round - 1
        }
      }
    }
    #expect(missed.all.isEmpty, "writes unheard by a listener added before them: \(missed.all)")
    withExtendedLifetime(keepAlive) {}
  }
}
