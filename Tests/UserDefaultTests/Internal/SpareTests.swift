import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

@Suite("A spare kept between uses")
struct SpareTests {
  @Test func aTakenValueIsTheTakersAloneUntilKeptAgain() {
    let spare = Spare<[UInt8]> { $0.capacity }
    #expect(spare.take(forBytes: 10) == nil)
    spare.keep([1, 2])
    #expect(spare.take(forBytes: 10) == [1, 2])
    #expect(spare.take(forBytes: 10) == nil)  // taken: a second taker makes its own
  }

  @Test func aLargeValueIsNotKept() {
    let spare = Spare<[UInt8]> { $0.capacity }
    spare.keep(Array(repeating: 0, count: Spare<[UInt8]>.largestKeptBytes + 1))
    #expect(spare.take(forBytes: 10) == nil)
  }

  /// A use too large to keep afterwards would only grow the kept value past keeping: it
  /// gets none, and the kept value stays for the next small use.
  @Test func aLargeUseLeavesTheKeptValueInPlace() {
    let spare = Spare<[UInt8]> { $0.capacity }
    spare.keep([7])
    #expect(spare.take(forBytes: Spare<[UInt8]>.largestKeptBytes + 1) == nil)
    #expect(spare.take(forBytes: 10) == [7])
  }

  /// Readers on several threads at once share the reader's staging arrays and the store's
  /// read buffer through spares: each must still read its own file, whole.
  @Test func readersOnSeveralThreadsAtOnceEachReadTheirOwnFile() throws {
    let files = try (0..<8).map { thread in
      try PropertyListSerialization.data(
        fromPropertyList: Dictionary(
          uniqueKeysWithValues: (0..<(50 + thread * 40)).map {
            (
              "key.\(thread).\($0)",
              ["thread": thread, "index": $0, "text": "a&b \($0)"] as [String: Any]
            )
          }),
        format: .xml, options: 0)
    }
    let mismatches = Lock(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for _ in 0..<100 {
        guard let values = PropertyListXMLReader.dictionary(from: files[thread]),
          values.count == 50 + thread * 40,
          values.allSatisfy({ name, value in
            let entry = value as? [String: Any]
            return name.hasPrefix("key.\(thread).") && entry?["thread"] as? Int == thread
          })
        else {
          mismatches.withLock { $0 += 1 }
          continue
        }
      }
    }
    #expect(mismatches.withLock { $0 } == 0)
  }

  /// The same for stores opened on several threads at once, which share the read buffer.
  @Test func storesOpenedOnSeveralThreadsAtOnceEachReadTheirOwnFile() throws {
    let directory = TemporaryDirectory()
    Diagnostics.installRecorder()
    for thread in 0..<8 {
      for round in 0..<20 {
        let values = Dictionary(
          uniqueKeysWithValues: (0..<(20 + thread * 30)).map { ("key.\(thread).\($0)", $0) })
        let data = try PropertyListSerialization.data(
          fromPropertyList: values, format: .xml, options: 0)
        try data.write(to: URL(fileURLWithPath: directory.path + "/s\(thread)-\(round).plist"))
      }
    }
    let mismatches = Lock(0)
    let path = directory.path
    // The test runner's own launch arguments are a domain of every store's search list.
    let arguments = Set(LaunchArguments.values().keys)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<20 {
        let store = try? PreferencesStore(suiteName: "s\(thread)-\(round)", directory: path)
        let values = (store?.dictionaryRepresentation() ?? [:]).filter {
          !arguments.contains($0.key)
        }
        let own = values.filter { $0.key.hasPrefix("key.\(thread).") }
        if own.count != 20 + thread * 30 || values.count != own.count {
          mismatches.withLock { $0 += 1 }
        }
      }
    }
    #expect(mismatches.withLock { $0 } == 0)
  }
}
