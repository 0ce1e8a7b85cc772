import Testing

@testable import UserDefault

/// `KnownValues` with a variable for Foundation; a read or write made inside another's
/// closure stands for one that overlapped it on another thread.
@Suite("What the library knows of a Foundation suite's values")
struct KnownValuesTests {
  final class Stored: @unchecked Sendable {
    // Only touched by the test's one thread.
    var value: Int?
  }

  let known = KnownValues()
  let stored = Stored()

  func read() -> Any? {
    known.reading("k") { stored.value }
  }

  func write(_ value: Int?) -> Bool {
    known.writing("k", value) { stored.value = value }
  }

  @Test func aWriteOfTheValueLastReadOrWrittenIsNoChange() {
    #expect(write(1))
    #expect(!write(1))
    #expect(write(2))
    stored.value = 3  // a change the library does not see
    #expect(read() as? Int == 3)
    #expect(!write(3))
    #expect(write(nil))
    #expect(!write(nil))
  }

  @Test func nothingIsKnownBeforeAReadOrWrite() {
    stored.value = 1
    #expect(write(1))
  }

  @Test func aReadThatAWriteOverlappedKeepsNothing() {
    stored.value = 1
    _ = read()
    let found = known.reading("k") {
      let before = stored.value
      #expect(write(2))
      return before
    }
    #expect(found as? Int == 1)
    #expect(stored.value == 2)
    #expect(write(1), "the read found 1 before the write of 2 and must not have kept it")
  }

  @Test func overlappingWritesLeaveTheValueUnknown() {
    _ = read()
    let outer = known.writing("k", 1) {
      stored.value = 1
      #expect(write(2))
    }
    #expect(outer)
    #expect(stored.value == 2)
    #expect(write(1), "Foundation holds 2: the outer write of 1 must not be kept")
  }

  @Test func anEqualWriteOverlappedByAnotherIsAChange() {
    #expect(write(1))
    let outer = known.writing("k", 1) {
      #expect(write(2))
      stored.value = 1
    }
    #expect(outer, "another write came between the known 1 and this one")
  }

  @Test func forgottenNamesAreUnknown() {
    #expect(write(1))
    known.forget(["k"])
    #expect(write(1))
  }
}
