import Foundation
import Observation
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

  /// Records are indexed by the name's number, as the suite indexes them.
  func number(_ name: String) -> Int {
    KeyIdentity.of("SeenValuesTests.\(name)").number
  }

  func read() -> Int? {
    seen.read(number("k")) { stored.value } as? Int
  }

  /// Whether readers may see a change.
  func write(_ value: Int?) -> Bool {
    stored.value = value
    return seen.wrote(number("k"), value)
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

  /// A write between a first read's lookup and its record finds no record to compare with
  /// and tells nobody; a listener that joined meanwhile (`updates`) would keep the old
  /// value. So the first read looks Foundation up again once its record exists.
  @Test func aWriteDuringAFirstReadIsHandedToIt() {
    stored.value = 1
    var lookups = 0
    let found = seen.read(number("k")) {
      lookups += 1
      let found = stored.value
      if lookups == 1 { #expect(!write(2), "the key has no record yet") }
      return found
    }
    #expect(found as? Int == 2)
    #expect(lookups == 2)
    #expect(write(2), "a reader recorded meanwhile may hold 1")
    #expect(!write(2))
  }

  @Test func aFirstReadLooksUpOnceMoreAndLaterReadsOnce() {
    stored.value = 1
    var lookups = 0
    for _ in 0..<3 {
      _ = seen.read(number("k")) {
        lookups += 1
        return stored.value
      }
    }
    #expect(lookups == 4)
    #expect(!write(1))
  }

  /// What the record rests on: a change made while a tracked closure runs reaches no
  /// tracker of that closure, so a write during a read need not be told for that reader.
  @Test func aTrackerHearsOnlyChangesAfterItsClosure() {
    let model = TrackedModel()
    let heard = Heard()
    withObservationTracking {
      _ = model.value
      model.value = 1
    } onChange: {
      heard.count += 1
    }
    #expect(heard.count == 0)
    model.value = 2
    #expect(heard.count == 1)
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

  @Test func aReadThatFoundAnotherValueThanAWriteDuringItIsToldAtTheNextWrite() {
    stored.value = 1
    #expect(read() == 1)
    stored.value = 2
    let found = seen.read(number("k")) {
      let found = stored.value
      #expect(!write(1), "every reader recorded so far was handed 1")
      return found
    }
    #expect(found as? Int == 2)
    #expect(write(1), "that reader holds 2")
  }

  @Test func aReadAfterAWriteOfAnotherValueIsRecordedAsDiffering() {
    stored.value = 1
    #expect(read() == 1)
    // Found 1, recorded after a write of 2 told everyone of 2.
    let found = seen.read(number("k")) {
      let found = stored.value
      #expect(write(2))
      return found
    }
    #expect(found as? Int == 1)
    #expect(write(2), "a reader holds 1")
  }

  /// Objects compare as property lists, whatever form Foundation hands them in (bridged
  /// numbers and text on Apple platforms, Swift values on Linux).
  @Test func aWriteIsComparedAsAPropertyList() {
    let cases: [(handed: Any, written: Any, isSame: Bool)] = [
      (NSNumber(value: 42), 42, true),
      (42, NSNumber(value: 42), true),
      (NSString(string: "text"), "text", true),
      ("text", NSString(string: "text"), true),
      ("text", "other", false),
      (1, true, false),
      (1.5, 1.5, true),
      ([1, 2], [1, 2], true),
      ([1, 2], [1, 3], false),
      (Data([1]), Data([1]), true),
    ]
    for (index, pair) in cases.enumerated() {
      let name = "k\(index)"
      _ = seen.read(number(name)) { pair.handed }
      #expect(seen.wrote(number(name), pair.written) == !pair.isSame, "\(pair)")
    }
  }

  @Test func anAbsentValueIsNoChangeOnlyForARemoval() {
    _ = seen.read(number("k")) { nil }
    #expect(!seen.wrote(number("k"), nil))
    #expect(seen.wrote(number("k"), 0))
    #expect(seen.wrote(number("k"), nil))
  }

  /// Records live in storage indexed by the names' numbers, which grows as numbers beyond
  /// it are read: every record made before keeps its value, whether held as an `Int`, as
  /// text or boxed.
  @Test func recordsSurviveTheirStorageGrowing() {
    let values: [Any] = (0..<300).map { index -> Any in
      switch index % 3 {
      case 0: index
      case 1: "text \(index)"
      default: [index, index + 1]
      }
    }
    let names = values.indices.map { "grown\($0)" }
    for (name, value) in zip(names, values) {
      _ = seen.read(number(name)) { value }
    }
    for (name, value) in zip(names, values) {
      #expect(!seen.wrote(number(name), value), "\(name): its reader was handed \(value)")
      #expect(seen.wrote(number(name), "another"), "\(name)")
    }
  }

  /// A number inside the storage that no reader was handed yet has no record either.
  @Test func aNumberBelowOneReadTellsNobody() {
    let (lower, higher) = (number("below"), number("above"))
    _ = seen.read(max(lower, higher)) { 1 }
    #expect(!seen.wrote(min(lower, higher), 1), "nobody read the lower number")
    #expect(!seen.wrote(max(lower, higher), 1), "its reader was handed 1")
  }

  /// Threads reading and writing numbers while the storage grows under them: no record is
  /// lost (a read number without one would let a write of a new value tell nobody). Run
  /// under the thread sanitizer by CI.
  @Test func recordsSurviveThreadsGrowingTheirStorage() {
    let numbers = (0..<400).map { number("threaded\($0)") }.shuffled()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for (index, number) in numbers.enumerated() {
        _ = seen.read(number) { index % 2 == 0 ? thread : "text \(thread)" }
        if index % 7 == thread { _ = seen.wrote(number, [thread]) }
      }
    }
    for number in numbers {
      #expect(seen.wrote(number, "a value no reader was handed"), "number \(number)")
    }
  }

  /// A record is changed field by field: after each kind of value (text, an `Int`, a boxed
  /// array, nothing), only the latest agreement is held, and an earlier value of another
  /// kind is a change.
  @Test func aRecordHoldsOnlyItsLatestAgreement() {
    let key = number("kinds")
    #expect(seen.read(key) { "text" } as? String == "text")
    #expect(!seen.wrote(key, "text"))
    #expect(seen.wrote(key, 7))
    #expect(!seen.wrote(key, 7))
    #expect(seen.wrote(key, "text"))
    #expect(seen.wrote(key, [1, 2]))
    #expect(!seen.wrote(key, [1, 2]))
    #expect(seen.wrote(key, 7))
    #expect(seen.wrote(key, [1, 2]))
    #expect(seen.wrote(key, nil))
    #expect(!seen.wrote(key, nil))
    #expect(seen.wrote(key, "text"))
    #expect(!seen.wrote(key, "text"))
  }

  @Test func keysAreSeparate() {
    #expect(read() == nil)
    #expect(write(1))
    #expect(!seen.wrote(number("other"), 1), "nobody read the other key")
    #expect(seen.read(number("other")) { 2 } as? Int == 2)
    #expect(!seen.wrote(number("other"), 2), "its reader holds 2, whatever the first key's hold")
    #expect(seen.wrote(number("other"), 3))
    #expect(!write(1))
  }

  /// On Darwin the first read of a key starts watching it (key-value observing), so a key
  /// only ever read under Observation tracking hears other processes' writes.
  @Test func theFirstReadOfEachKeyIsTold() {
    var firsts: [String] = []
    for name in ["a", "b", "a", "a", "b", "c"] {
      _ = seen.read(number(name), firstRead: { firsts.append(name) }, { stored.value })
    }
    #expect(firsts == ["a", "b", "c"])
    stored.value = 5
    #expect(seen.wrote(number("a"), 5))
    _ = seen.read(number("a"), firstRead: { firsts.append("a again") }, { stored.value })
    #expect(firsts == ["a", "b", "c"], "a write keeps the key's record")
  }
}

@Observable
private final class TrackedModel {
  var value = 0
}

private final class Heard: @unchecked Sendable {
  // Only touched by the test's one thread: onChange runs inside the mutation.
  var count = 0
}
