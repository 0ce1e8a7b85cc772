import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

@Suite("Per-thread objects")
struct PerThreadTests {
  /// What happened to the probe made on the ended thread.
  private struct Record {
    var endedThread: pthread_t?
    var isJoined = false
    var releasedOnEndedThread = false
    var released = false
  }
  private static let record = Lock(Record())

  private final class Probe {
    let isTheEndedThreads: Bool
    init(isTheEndedThreads: Bool) { self.isTheEndedThreads = isTheEndedThreads }
    deinit {
      guard isTheEndedThreads else { return }
      PerThreadTests.record.withLock { record in
        record.released = true
        // Before the join, no other thread can have the ended thread's identifier.
        if !record.isJoined, let ended = record.endedThread,
          pthread_equal(ended, pthread_self()) != 0
        {
          record.releasedOnEndedThread = true
        }
      }
    }
  }

  /// Regression: releasing a thread's cached stores from its thread-specific-data
  /// destructor ran their deinitialisers there; on a Dispatch worker thread that made
  /// Dispatch free its cached continuations twice, the heap corruption that aborted about
  /// half the full test runs (AddressSanitizer: double-free in `_dispatch_cache_cleanup`).
  @Test(
    "An ended thread's object is released by the next thread that makes one, not while the thread ends"
  )
  func endedThreadsObjectIsReleasedLater() {
    let perThread = PerThread { Probe(isTheEndedThreads: PerThreadTests.isEndedThread) }
    runOnJoinedThread {
      Self.record.withLock { $0.endedThread = pthread_self() }
      _ = perThread.current
    }
    Self.record.withLock { $0.isJoined = true }
    // Another thread's first use releases what ended threads set aside.
    runOnJoinedThread { _ = perThread.current }
    let record = Self.record.withLock { $0 }
    #expect(record.released, "the ended thread's object was never released")
    #expect(!record.releasedOnEndedThread, "released while its thread was ending")
  }

  /// Regression guard: a later thread-specific destructor (another library's, say, whose
  /// object reads a default as it goes) that makes a per-thread object on the ending
  /// thread must not release what was set aside there.
  @Test("A per-thread object made while the thread ends does not release others there")
  func objectMadeWhileTheThreadEndsReleasesNothing() {
    let ended = Lock<pthread_t?>(nil)
    let releasedOnEndedThread = Lock(false)
    final class Watched {
      let onRelease: @Sendable () -> Void
      init(onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }
      deinit { onRelease() }
    }
    let first = PerThread {
      Watched {
        let isEnded = ended.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } }
        if isEnded == true { releasedOnEndedThread.withLock { $0 = true } }
      }
    }
    // Created after `first`'s key, so glibc runs its destructor after `first`'s.
    var lateKey = pthread_key_t()
    let created = pthread_key_create(&lateKey) { _ in _ = PerThreadTests.lateUser.current }
    #expect(created == 0)
    let key = lateKey
    runOnJoinedThread {
      ended.withLock { $0 = pthread_self() }
      _ = first.current
      pthread_setspecific(key, UnsafeMutableRawPointer(bitPattern: 1))
    }
    ended.withLock { $0 = nil }
    pthread_key_delete(lateKey)
    #expect(!releasedOnEndedThread.withLock { $0 }, "released while its thread was ending")
  }
  private static let lateUser = PerThread { NSObject() }

  /// Regression guard: the threads library clears every slot as a destructor round reaches
  /// it, the ending mark's included, so a destructor that ran after the mark's slot found
  /// the thread not ending.
  @Test("The ending mark holds for destructors that run after its slot was cleared")
  func endingMarkSurvivesItsSlotBeingCleared() {
    _ = EndedThreads.endingKey  // made first: its slot comes before the probe's below
    var probeKey = pthread_key_t()
    let created = pthread_key_create(&probeKey) { _ in
      let isEnding = EndedThreads.isCurrentThreadEnding
      PerThreadTests.markSeen.withLock { $0 = isEnding }
    }
    #expect(created == 0)
    let key = probeKey
    runOnJoinedThread {
      EndedThreads.markCurrentThreadEnding()  // what setting an object aside does
      pthread_setspecific(key, UnsafeMutableRawPointer(bitPattern: 1))
    }
    pthread_key_delete(key)
    #expect(Self.markSeen.withLock { $0 } == true, "the probe's destructor saw no mark")
  }
  private static let markSeen = Lock<Bool?>(nil)

  private static var isEndedThread: Bool {
    record.withLock { record in
      record.endedThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }
  }
}
