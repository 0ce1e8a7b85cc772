import Testing

@testable import UserDefault

/// `SeenValues` with a variable standing for Foundation; a write made inside a read's lookup
/// stands for one that another thread made while the read was underway.
@Suite("What readers of a Foundation suite were handed")
struct SeenValuesTests {
  final class Stored: @unchecked Sendable {
    // Only touched by the test's one thread.
    var value: Int?
  }

  let seen = SeenValues()
  let stored = Stored()

  func read() -> Int? {
    seen.read("k") { stored.value } as? Int
  }

  /// Whether readers may see a change.
  func write(_ value: Int?) -> Bool {
    stored.value = value
    return seen.wrote("k", value)
  }

  @Test func aWriteOfTheValueReadersWereHandedIsNoChange() {
    #expect(read() == nil)
    #expect(write(1))
    #expect(!write(1))
    #expect(read() == 1)
    #expect(!write(1))
    #expect(write(2))
    #expect(write(nil))
    #expect(!write(nil))
  }

  @Test func aKeyNoReaderWasHandedTellsNobody() {
    stored.value = 1
    #expect(!write(1))
    #expect(!write(2), "no reader can be tracking the key")
    #expect(read() == 2)
    #expect(!write(2))
    #expect(write(3))
  }

  @Test func aFirstReadUnderwayIsToldOfAWrite() {
    stored.value = 1
    let found = seen.read("k") {
      let found = stored.value
      #expect(write(2), "the read underway found 1 and is not recorded yet")
      return found
    }
    #expect(found as? Int == 1)
    #expect(write(2), "that reader holds 1")
    #expect(!write(2))
  }

  @Test func aChangeTheLibraryDidNotSeeCountsOnceReadThrough() {
    #expect(read() == nil)
    #expect(write(1))
    stored.value = 3  // a plain `set`: nobody is told
    #expect(!write(1), "every reader was handed 1")
    stored.value = 3
    #expect(read() == 3)
    #expect(write(3), "one reader holds 1, another 3")
    #expect(!write(3))
  }

  @Test func readersHandedDifferentValuesAreToldOfTheNextWrite() {
    stored.value = 1
    #expect(read() == 1)
    stored.value = 2
    #expect(read() == 2)
    stored.value = 1
    #expect(read() == 1)
    #expect(write(2), "the first and third readers hold 1")
    #expect(!write(2), "the write told them all")
  }

  @Test func aWriteWhileAReadIsUnderwayIsAChange() {
    stored.value = 1
    #expect(read() == 1)
    stored.value = 2
    let found = seen.read("k") {
      let found = stored.value
      #expect(write(1), "the read underway found 2 and is not recorded yet")
      return found
    }
    #expect(found as? Int == 2)
    #expect(write(1), "that reader holds 2")
  }

  @Test func aReadAfterAWriteOfAnotherValueIsRecordedAsDiffering() {
    stored.value = 1
    #expect(read() == 1)
    // Found 1, recorded after a write of 2 told everyone of 2.
    let found = seen.read("k") {
      let found = stored.value
      #expect(write(2))
      return found
    }
    #expect(found as? Int == 1)
    #expect(write(2), "a reader holds 1")
  }

  @Test func keysAreSeparate() {
    #expect(read() == nil)
    #expect(write(1))
    #expect(!seen.wrote("other", 1), "nobody read the other key")
    #expect(seen.read("other") { 2 } as? Int == 2)
    #expect(!seen.wrote("other", 2), "its reader holds 2, whatever the first key's hold")
    #expect(seen.wrote("other", 3))
    #expect(!write(1))
  }

  /// On Darwin the first read of a key starts watching it (key-value observing), so a key
  /// only ever read under Observation tracking hears other processes' writes.
  @Test func theFirstReadOfEachKeyIsTold() {
    var firsts: [String] = []
    for name in ["a", "b", "a", "a", "b", "c"] {
      _ = seen.read(name, firstRead: { firsts.append(name) }, { stored.value })
    }
    #expect(firsts == ["a", "b", "c"])
    stored.value = 5
    #expect(seen.wrote("a", 5))
    _ = seen.read("a", firstRead: { firsts.append("a again") }, { stored.value })
    #expect(firsts == ["a", "b", "c"], "a write keeps the key's record")
  }
}
