import Foundation
import Testing

@testable import UserDefault

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A save on Apple's mobile platforms waits a bounded time for another process's lock. The
/// bounded lock is portable, so it is tested here; `flock` locks belong to an open file,
/// so a second `open` in this process stands for the other process.
@Suite("Saving: a lock held elsewhere is waited for a bounded time")
struct SavingActivityTests {
  /// Holds the file's lock through a descriptor of its own until `release()`.
  final class OtherHolder: Sendable {
    let descriptor: Int32
    init(_ file: PreferencesFile) throws {
      descriptor = open(file.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      try #require(descriptor >= 0)
      try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
    }
    func release() { flock(descriptor, LOCK_UN) }
    deinit { close(descriptor) }
  }

  @Test("A lock held all the while is given up after the limit, and nothing runs")
  func aHeldLockIsGivenUp() throws {
    let directory = TemporaryDirectory()
    let file = PreferencesFile(directory: directory.path, suite: "app")
    let holder = try OtherHolder(file)
    let clock = ContinuousClock()
    let start = clock.now
    let error = #expect(throws: DefaultsError.self) {
      try file.withLock(waitingAtMost: .milliseconds(150)) { () throws(DefaultsError) in
        Issue.record("the body ran without the lock")
      }
    }
    let waited = clock.now - start
    #expect(error?.kind == .failedSave)
    #expect(error?.message.contains(file.lockPath) == true)
    #expect(waited >= .milliseconds(150))
    #expect(waited < .seconds(5))
    holder.release()
  }

  @Test("A lock let go meanwhile is taken, and the body runs holding it")
  func aLockLetGoIsTaken() throws {
    let directory = TemporaryDirectory()
    let file = PreferencesFile(directory: directory.path, suite: "app")
    let holder = try OtherHolder(file)
    let released = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      holder.release()
      released.signal()
    }
    let ran = try file.withLock(waitingAtMost: .seconds(30)) { () throws(DefaultsError) in
      // Held here: another descriptor cannot take it.
      let probe = open(file.lockPath, O_RDWR | O_CLOEXEC)
      defer { close(probe) }
      #expect(flock(probe, LOCK_EX | LOCK_NB) != 0)
      return true
    }
    #expect(ran)
    #expect(released.wait(timeout: .now() + 30) == .success)
  }

  @Test("A store's save runs under the file's lock (SavingActivity.save)")
  func aSaveHoldsTheLock() throws {
    let directory = TemporaryDirectory()
    let file = PreferencesFile(directory: directory.path, suite: "app")
    let held = try SavingActivity.save(file) { () throws(DefaultsError) in
      let probe = open(file.lockPath, O_RDWR | O_CLOEXEC)
      defer { close(probe) }
      return flock(probe, LOCK_EX | LOCK_NB) != 0
    }
    #expect(held)
  }
}
