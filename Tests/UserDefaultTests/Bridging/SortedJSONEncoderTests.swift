import Foundation
import Testing

@testable import UserDefault

/// The library's JSON text as `JSONEncoder` writes it with the library's settings.
private func foundationText<T: Encodable>(_ value: T) throws -> String {
  String(decoding: try JSONCoding.makeEncoder().encode(value), as: UTF8.self)
}

private struct Address: Codable {
  var street: String
  var zip: Int?
  var tags: [String]
}

private struct Person: Codable {
  var name: String
  var age: Int
  var email: String
  var score: Double
  var ratio: Float
  var isAdmin: Bool
  var nickname: String?
  var addresses: [Address]
  var counts: [String: Int]
  var byNumber: [Int: String]
  var small: Int8
  var large: UInt64
}

private enum Shape: Codable {
  case circle(radius: Double)
  case square(side: Int, label: String?)
  case empty
}

/// A type that writes the same key twice and asks twice for one nested container, to pin
/// `JSONEncoder`'s "the last value wins" and "the container is the same one".
private struct Rewrites: Encodable {
  enum Keys: String, CodingKey { case a, b, c, inner }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(1, forKey: .a)
    try container.encode("x", forKey: .b)
    try container.encode(2, forKey: .a)
    var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
    try inner.encode(true, forKey: .b)
    var again = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
    try again.encode(false, forKey: .a)
    var list = container.nestedUnkeyedContainer(forKey: .c)
    try list.encode(3)
    var nestedInList = list.nestedContainer(keyedBy: Keys.self)
    try nestedInList.encodeNil(forKey: .a)
  }
}

/// A type that encodes nothing: `{}` inside another value.
private struct Nothing: Encodable {
  func encode(to encoder: any Encoder) throws {}
}

private struct HoldsNothing: Encodable {
  var nothing = Nothing()
  var list = [Nothing(), Nothing()]
}

/// Random values of every shape the fast encoder takes, for comparing its text with
/// `JSONEncoder`'s.
private indirect enum Tree: Encodable {
  case int(Int)
  case int8(Int8)
  case uint64(UInt64)
  case int32(Int32)
  case double(Double)
  case float(Float)
  case bool(Bool)
  case string(String)
  case none
  case array([Tree])
  case object([String: Tree])
  case numbered([Int: Tree])

  func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    switch self {
    case .int(let value): try single.encode(value)
    case .int8(let value): try single.encode(value)
    case .uint64(let value): try single.encode(value)
    case .int32(let value): try single.encode(value)
    case .double(let value): try single.encode(value)
    case .float(let value): try single.encode(value)
    case .bool(let value): try single.encode(value)
    case .string(let value): try single.encode(value)
    case .none: try single.encodeNil()
    case .array(let value): try single.encode(value)
    case .object(let value): try single.encode(value)
    case .numbered(let value): try single.encode(value)
    }
  }

  static func random(depth: Int, using generator: inout SeededGenerator) -> Tree {
    let kind = Int.random(in: 0..<(depth > 0 ? 12 : 9), using: &generator)
    switch kind {
    case 0:
      return .int(
        Int.random(in: .min ... .max, using: &generator)
          >> Int.random(in: 0..<64, using: &generator))
    case 1: return .int8(Int8.random(in: .min ... .max, using: &generator))
    case 2: return .uint64(UInt64.random(in: .min ... .max, using: &generator))
    case 3: return .int32(Int32.random(in: .min ... .max, using: &generator))
    case 4: return .double(randomDouble(using: &generator))
    case 5: return .float(Float(randomDouble(using: &generator)))
    case 6: return .bool(Bool.random(using: &generator))
    case 7: return .string(randomText(using: &generator))
    case 8: return .none
    case 9:
      return .array(
        (0..<Int.random(in: 0..<5, using: &generator)).map { _ in
          random(depth: depth - 1, using: &generator)
        })
    case 10:
      var object: [String: Tree] = [:]
      for _ in 0..<Int.random(in: 0..<6, using: &generator) {
        object[randomText(using: &generator)] = random(depth: depth - 1, using: &generator)
      }
      return .object(object)
    default:
      var object: [Int: Tree] = [:]
      for _ in 0..<Int.random(in: 0..<4, using: &generator) {
        object[Int.random(in: -20...20, using: &generator)] = random(
          depth: depth - 1, using: &generator)
      }
      return .numbered(object)
    }
  }

  static func randomDouble(using generator: inout SeededGenerator) -> Double {
    switch Int.random(in: 0..<6, using: &generator) {
    case 0: return Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator))
    case 1:
      return [0.0, -0.0, .infinity, -.infinity, .nan, 1e300, .leastNonzeroMagnitude, 0.1][
        Int.random(in: 0..<8, using: &generator)]
    case 2: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
    case 3: return Double(Int.random(in: -1000...1000, using: &generator)) / 8
    default: return Double.random(in: -1e6...1e6, using: &generator)
    }
  }

  static func randomText(using generator: inout SeededGenerator) -> String {
    let pieces = [
      "a", "B", "z", "_", "1", "10", "9", "/", "\\", "\"", "\n", "\t", "\u{0}", "\u{1F}",
      "\u{8}", "\u{C}", "\r", "é", "e\u{301}", "日本", "🙂", " ", "<", "&", "\u{7F}", "\u{2028}",
    ]
    return (0..<Int.random(in: 0..<6, using: &generator)).map { _ in
      pieces[Int.random(in: 0..<pieces.count, using: &generator)]
    }.joined()
  }
}

/// A key made of any text, for types that choose their keys as they encode.
private struct NamedKey: CodingKey {
  let stringValue: String
  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  var intValue: Int? { nil }
  init?(intValue: Int) { nil }
}

/// Arrays in arrays, `depth` deep around a 1.
private struct Nested: Encodable {
  var depth: Int
  func encode(to encoder: any Encoder) throws {
    guard depth > 0 else {
      var single = encoder.singleValueContainer()
      return try single.encode(1)
    }
    var container = encoder.unkeyedContainer()
    try container.encode(Nested(depth: depth - 1))
  }
}

/// Catches what it cannot encode and goes on: `JSONEncoder` would have written it.
private struct CatchesItsDate: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: NamedKey.self)
    try container.encode(1, forKey: NamedKey("a"))
    try? container.encode(Date(timeIntervalSinceReferenceDate: 5), forKey: NamedKey("d"))
    var list = container.nestedUnkeyedContainer(forKey: NamedKey("list"))
    try? list.encode(Date(timeIntervalSinceReferenceDate: 5))
    try list.encode(2)
  }
}

/// Keeps its container after its `encode(to:)` returned, for a sibling to write into.
private final class KeptContainer {
  var container: KeyedEncodingContainer<NamedKey>?
}

private struct WritesLate: Encodable {
  struct Keeps: Encodable {
    let kept: KeptContainer
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: NamedKey.self)
      try container.encode(1, forKey: NamedKey("a"))
      kept.container = container
    }
  }
  struct Late: Encodable {
    let kept: KeptContainer
    func encode(to encoder: any Encoder) throws {
      try kept.container?.encode(2, forKey: NamedKey("late"))
      var single = encoder.singleValueContainer()
      try single.encode(0)
    }
  }
  let kept = KeptContainer()
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: NamedKey.self)
    try container.encode(Keeps(kept: kept), forKey: NamedKey("x"))
    try container.encode(Late(kept: kept), forKey: NamedKey("y"))
  }
}

/// Many members, some asked for twice as nested containers.
private struct ManyNested: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: NamedKey.self)
    for round in 0..<2 {
      for index in (0..<40).reversed() {
        var nested = container.nestedContainer(
          keyedBy: NamedKey.self, forKey: NamedKey("k\(index)"))
        try nested.encode(round, forKey: NamedKey("r\(round)"))
      }
    }
    try container.encode("last", forKey: NamedKey("k7"))
  }
}

private func expectFoundationsText<T: Encodable>(_ value: T) throws {
  let fast = SortedJSONEncoder.text(of: value)
  #expect(fast != nil, "declined \(value)")
  #expect(fast == (try foundationText(value)), "\(T.self)")
}

/// The fast JSON encoder writes `JSONEncoder`'s text, byte for byte, or declines.
/// Whether this platform's `JSONEncoder` sorts keys by their UTF-8 bytes, as it does on
/// Linux; on Apple platforms it may sort them by `NSString`'s numeric comparison, and the
/// tests that compare with it do not apply.
private let foundationSortsKeysByBytes =
  (try? foundationText(["B": 0, "a": 0, "a10": 0, "a9": 0])) == #"{"B":0,"a":0,"a10":0,"a9":0}"#

@Suite struct SortedJSONEncoderTests {
  @Test func writesThisText() throws {
    struct Sample: Encodable {
      var text = "a/\"\n\u{1}\u{7F}é🙂"
      var counts = ["b": 2, "a": 1, "B": 3, "a10": 10, "a9": 9]
      var byNumber = [10: "ten", -1: "minus", 2: "two"]
      var numbers = [0.1, 1, -0.0, 1e300, .infinity, -.infinity, .nan, 2.5e-8]
      var small = Float(0.1)
      var flags = [true, false]
      var nothing: Int? = nil
      var none = [Int?.none]
    }
    let expected =
      #"{"byNumber":{"-1":"minus","10":"ten","2":"two"},"counts":{"B":3,"a":1,"a10":10,"a9":9,"b":2},"#
      + #""flags":[true,false],"none":[null],"numbers":[0.1,1,-0,1e+300,"inf","-inf","nan",2.5e-08],"#
      + #""small":0.1,"text":"a\/\"\n\u0001\#u{7F}é🙂"}"#
    #expect(SortedJSONEncoder.text(of: Sample()) == expected)
  }

  @Test(.enabled(if: foundationSortsKeysByBytes))
  func writesFoundationsTextForTheUsualShapes() throws {
    let person = Person(
      name: "Ada / \"Countess\"", age: 36, email: "ada@example.com", score: 0.1, ratio: 1.5,
      isAdmin: true, nickname: nil,
      addresses: [
        Address(street: "St James's Sq.", zip: 12, tags: ["home", "a\tb"]),
        Address(street: "", zip: nil, tags: []),
      ],
      counts: ["b": 2, "a": 1, "B": 3, "a10": 10, "a9": 9],
      byNumber: [10: "ten", -1: "minus", 2: "two"],
      small: -128, large: .max)
    let values: [any Encodable] = [
      person, [person, person], Shape.circle(radius: 2), Shape.square(side: 3, label: nil),
      Shape.empty, Rewrites(), HoldsNothing(), "top-level text", 42, 2.5, true,
      [1, 2, 3], [1.0, 0.5, -0.0, .infinity, .nan], [Float(0.1), 3], ["x": [1: [true]]],
      Optional<Int>.none, [Int?.none, 1],
    ]
    for value in values { try expectFoundationsText(value) }
  }

  @Test(.enabled(if: foundationSortsKeysByBytes))
  func writesFoundationsTextForRandomValues() throws {
    var generator = SeededGenerator(seed: 47)
    var written = 0
    for _ in 0..<3_000 {
      let tree = Tree.random(depth: 4, using: &generator)
      guard let fast = SortedJSONEncoder.text(of: tree) else { continue }
      written += 1
      #expect(fast == (try foundationText(tree)), "\(tree)")
    }
    // Only objects with canonically equal keys spelled differently are declined.
    #expect(written > 2_900)
  }

  @Test func declinesWhatFoundationWritesByStrategy() throws {
    struct Stamped: Encodable {
      var when = Date(timeIntervalSinceReferenceDate: 1)
    }
    struct Linked: Encodable {
      var link = URL(string: "https://example.com/a")!
      var bytes = Data([1, 2])
    }
    #expect(SortedJSONEncoder.text(of: Stamped()) == nil)
    #expect(SortedJSONEncoder.text(of: Linked()) == nil)
    // The library's coder then writes `JSONEncoder`'s text itself.
    #expect(try JSONCoding.shared.encodeToString(Stamped()) == foundationText(Stamped()))
    #expect(try JSONCoding.shared.encodeToString(Linked()) == foundationText(Linked()))
    #expect(SortedJSONEncoder.text(of: [Decimal(1)]) == nil)
    #expect(SortedJSONEncoder.text(of: [Date?.some(Date())]) == nil)
    #expect(SortedJSONEncoder.text(of: Nothing()) == nil)
  }

  @Test func declinesKeysThatADictionaryWouldMerge() throws {
    #expect(Set(["\u{E9}", "e\u{301}"]).count == 1, "Swift merges canonically equal keys")
    struct Spelled: Encodable {
      enum Keys: CodingKey {
        case composed, decomposed
        var stringValue: String { self == .composed ? "\u{E9}" : "e\u{301}" }
      }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .composed)
        try container.encode(2, forKey: .decomposed)
      }
    }
    #expect(SortedJSONEncoder.text(of: Spelled()) == nil)
  }

  @Test func aThrowingValueIsLeftToFoundation() {
    struct Failing: Encodable {
      func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
      }
    }
    #expect(SortedJSONEncoder.text(of: [Failing()]) == nil)
    #expect(throws: DefaultsError.self) { try JSONCoding.shared.encodeToString([Failing()]) }
  }

  @Test func theCodingPathIsFoundations() throws {
    final class Paths {
      var seen: [String] = []
    }
    struct Leaf: Encodable {
      let paths: Paths
      func encode(to encoder: any Encoder) throws {
        paths.seen.append(encoder.codingPath.map(\.stringValue).joined(separator: "."))
        var single = encoder.singleValueContainer()
        try single.encode(1)
      }
    }
    struct Root: Encodable {
      let paths: Paths
      enum Keys: CodingKey { case list, inner }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode(Leaf(paths: paths))
        try list.encode(Leaf(paths: paths))
        try container.encode(Leaf(paths: paths), forKey: .inner)
      }
    }
    let fast = Paths()
    let foundation = Paths()
    _ = try #require(SortedJSONEncoder.text(of: Root(paths: fast)))
    _ = try foundationText(Root(paths: foundation))
    #expect(fast.seen == foundation.seen)
  }

  @Test func declinesNestingDeeperThanItsLimit() {
    #expect(SortedJSONEncoder.text(of: Nested(depth: 20), deepest: 20) != nil)
    #expect(SortedJSONEncoder.text(of: Nested(depth: 21), deepest: 20) == nil)
  }

  // Six hundred levels overflow a secondary thread's 512 KiB stack on Apple platforms, in
  // `JSONEncoder` as here; Linux gives threads 8 MiB.
  #if os(Linux)
    @Test func declinesNestingWhereFoundationStops() throws {
      try expectFoundationsText(Nested(depth: 100))
      #expect(SortedJSONEncoder.text(of: Nested(depth: 600)) == nil)
      #expect(throws: (any Error).self) { try foundationText(Nested(depth: 600)) }
    }
  #endif

  @Test func aRefusalTheValueCaughtStillDeclines() throws {
    #expect(SortedJSONEncoder.text(of: CatchesItsDate()) == nil)
    let written = try JSONCoding.shared.encodeToString(CatchesItsDate())
    #expect(written == (try foundationText(CatchesItsDate())))
    #expect(written.contains(#""d":5"#))
  }

  @Test func aWriteAfterTheValueReturnedDeclines() throws {
    #expect(SortedJSONEncoder.text(of: WritesLate()) == nil)
    let written = try JSONCoding.shared.encodeToString(WritesLate())
    #expect(written == (try foundationText(WritesLate())))
  }

  /// Past 16 members an object is sorted by `sort()` and its nested containers found
  /// through an index (the insertion sort and the scan were quadratic).
  @Test(.enabled(if: foundationSortsKeysByBytes))
  func manyMembersTakeTheSortAndTheIndex() throws {
    var counts: [String: Int] = [:]
    for index in 0..<5_000 { counts["key \(index % 4_000) \(index)"] = index }
    try expectFoundationsText(counts)
    try expectFoundationsText(ManyNested())
  }
}
