import Foundation

/// Writes a value's JSON text as the library's `JSONEncoder` does on Linux (keys sorted by
/// their UTF-8 bytes, non-finite numbers as `"inf"`, `"-inf"` and `"nan"`), without its
/// general machinery: a `Codable` write's encoding costs about two fifths as much (the
/// Performance article has the figures).
///
/// It covers what `Codable` types usually encode: numbers, text, booleans, `nil`, arrays,
/// dictionaries and nested types, through synthesized or hand-written `encode(to:)`. For
/// the rest it returns `nil` and the caller encodes with `JSONEncoder`, which then gives its
/// own text or error (the value's `encode(to:)` runs twice then, the first time up to what
/// was declined):
/// - `Date`, `Data`, `URL` and `Decimal`, which `JSONEncoder` writes its own way;
/// - `superEncoder()`, 128-bit integers, a container of another kind asked for where a value
///   or container is, a write after the value's `encode(to:)` returned, a top-level value
///   that encodes nothing, canonically equal keys spelled differently in one object, and
///   containers nested about 500 deep (`JSONEncoder` refuses 512);
/// - any error thrown while encoding, even one the value's own code caught.
///
/// Why `JSONEncoder`'s text: a value stored before must compare equal as text when
/// written again (the equal-write rule), and the tests compare the two encoders' text over
/// many shapes, and pin the text itself. On Apple platforms `JSONEncoder` may sort keys
/// by `NSString`'s numeric, case-insensitive comparison instead; there what this writes
/// is still this text, the same as on Linux.
enum SortedJSONEncoder {
  /// The value's JSON text, or `nil` when `JSONEncoder` must write it (see above).
  ///
  /// ```swift
  /// SortedJSONEncoder.text(of: ["b": 2, "a": 1])  // {"a":1,"b":2}
  /// ```
  ///
  /// - Parameters:
  ///   - value: What to write.
  ///   - deepest: How many containers deep it writes; it declines deeper values
  ///     (`JSONEncoder` stops at 512). A parameter so that tests reach it on a small stack.
  /// - Returns: The text, or `nil` for what it declines.
  static func text<T: Encodable>(of value: T, deepest: Int = 500) -> String? {
    let encoder = NodeEncoder(parent: nil, key: nil)
    guard !NodeEncoder.isSpecialCased(T.self), (try? value.encode(to: encoder)) != nil,
      let node = encoder.result, !encoder.isRefused
    else { return nil }
    var text = JSONText(deepest: deepest)
    // One allocation for a small value's text.
    text.bytes.reserveCapacity(128)
    text.write(node)
    if text.isTooDeep || text.hasNonASCIIKeys && node.hasMergedKeys() { return nil }
    return String(decoding: text.bytes, as: UTF8.self)
  }
}

/// Why the fast encoder gave up; never seen outside this file, since every throw of it
/// first refuses the whole text.
private struct Refused: Error {}

/// A value encoded, before its text is written.
private enum JSONNode {
  /// `true`, `false` or `null`.
  case literal(StaticString)
  case number(String)
  case integer(Int64)
  case unsigned(UInt64)
  case string(String)
  case array(ArrayNode)
  case object(ObjectNode)

  static var null: JSONNode { .literal("null") }
  static func bool(_ value: Bool) -> JSONNode { .literal(value ? "true" : "false") }

  static func number<N: FixedWidthInteger & SignedInteger>(_ value: N) -> JSONNode {
    .integer(Int64(value))
  }

  static func number<N: FixedWidthInteger & UnsignedInteger>(_ value: N) -> JSONNode {
    .unsigned(UInt64(value))
  }

  static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> JSONNode {
    guard value.isFinite else {
      return .string(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return .number(text)
  }
}

// Unchecked exclusivity, here and in `ObjectNode` and `NodeEncoder`: no access to these
// properties can overlap another, because the value's own code (its `encode(to:)`, its
// keys' `stringValue`) never runs during one: every write works its value out first. A
// tree is made and written by one call of `SortedJSONEncoder.text(of:)`, on one thread.
private final class ArrayNode {
  @exclusivity(unchecked) var items: [JSONNode] = []
}

/// An object's members in the order they were encoded; a key encoded twice keeps its
/// last value, as `JSONEncoder`'s dictionary does.
private final class ObjectNode {
  @exclusivity(unchecked) var members: [(key: String, value: JSONNode)] = []

  init() {
    // One allocation for a small type's members instead of three as they arrive.
    members.reserveCapacity(4)
  }

  func set(_ value: JSONNode, for key: String) {
    #if canImport(Darwin)
      // Native once here, not at every comparison: a bridged `NSString` key would be
      // copied by each `withUTF8` of the sort. Linux has no bridged strings, and the check
      // costs every key there.
      guard key.isContiguousUTF8 else {
        var key = key
        key.makeContiguousUTF8()
        return members.append((key, value))
      }
    #endif
    members.append((key, value))
  }

  /// The member at `key` when it is a nested container of the kind asked for; a new one
  /// where there is none or a plain value (where `JSONEncoder` stops on a precondition).
  /// Found with `String`'s equality, as `JSONEncoder`'s dictionary finds it.
  func nested(at key: String, isObject: Bool) throws(Refused) -> JSONNode {
    if let index = lastIndex(of: key) {
      switch (members[index].value, isObject) {
      case (.object, true), (.array, false): return members[index].value
      case (.object, false), (.array, true): throw Refused()
      default: break
      }
    }
    let node: JSONNode = isObject ? .object(ObjectNode()) : .array(ArrayNode())
    set(node, for: key)
    return node
  }

  /// Members by key, for the few types that ask for many nested containers by key:
  /// looked up in a scan while members are few, indexed once they are many.
  private var keyIndex: [String: Int] = [:]
  private var indexedCount = 0

  private func lastIndex(of key: String) -> Int? {
    guard members.count > Self.fewMembers else {
      return members.lastIndex { $0.key == key }
    }
    while indexedCount < members.count {
      keyIndex[members[indexedCount].key] = indexedCount
      indexedCount += 1
    }
    return keyIndex[key]
  }

  /// Up to this many members, a scan and an insertion sort beat building anything.
  private static let fewMembers = 16

  /// Calls `body` with the indices of the members to write, sorted by key bytes, the
  /// last of each key only.
  func withSortedOrder(_ body: (UnsafeBufferPointer<Int>) -> Void) {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: members.count) { order in
      let kept = members.count <= Self.fewMembers ? insert(into: order) : sort(into: order)
      body(UnsafeBufferPointer(rebasing: order[..<kept]))
    }
  }

  /// Insertion: members are few, and keys in order take one comparison each.
  /// - Returns: How many indices of `order` were kept.
  private func insert(into order: UnsafeMutableBufferPointer<Int>) -> Int {
    var kept = 0
    for index in members.indices {
      let key = members[index].key
      var slot = kept
      var comparison = 1
      while slot > 0 {
        comparison = JSONText.compare(members[order[slot - 1]].key, key)
        if comparison <= 0 { break }
        slot -= 1
      }
      if comparison == 0 {
        order[slot - 1] = index
        continue
      }
      var move = kept
      while move > slot {
        order[move] = order[move - 1]
        move -= 1
      }
      order[slot] = index
      kept += 1
    }
    return kept
  }

  /// `sort()` by key, then by index, and the last index of each key kept.
  /// - Returns: How many indices of `order` were kept.
  private func sort(into order: UnsafeMutableBufferPointer<Int>) -> Int {
    var order = order
    for index in members.indices { order[index] = index }
    order.sort { first, second in
      let comparison = JSONText.compare(members[first].key, members[second].key)
      return comparison != 0 ? comparison < 0 : first < second
    }
    var kept = 0
    for position in order.indices {
      let index = order[position]
      if kept > 0, JSONText.compare(members[order[kept - 1]].key, members[index].key) == 0 {
        order[kept - 1] = index
      } else {
        order[kept] = index
        kept += 1
      }
    }
    return kept
  }
}

/// The text of a tree of nodes.
private struct JSONText {
  var bytes: [UInt8] = []
  /// Whether an object with more than one member had a key outside ASCII.
  var hasNonASCIIKeys = false
  /// Whether containers were nested deeper than `deepest`.
  var isTooDeep = false
  private var depth = 0
  /// `JSONEncoder` stops at 512 containers deep; the default declines a little before, so
  /// that how it counts does not matter.
  let deepest: Int

  init(deepest: Int) {
    self.deepest = deepest
  }

  /// -1, 0 or 1 as `first`'s UTF-8 bytes sort before, equal or after `second`'s, the
  /// order `JSONEncoder` sorts keys in.
  static func compare(_ first: String, _ second: String) -> Int {
    var first = first
    var second = second
    return first.withUTF8 { a in
      second.withUTF8 { b in
        for index in 0..<min(a.count, b.count) where a[index] != b[index] {
          return a[index] < b[index] ? -1 : 1
        }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
      }
    }
  }

  /// Appends the node's text, its objects' keys sorted.
  mutating func write(_ node: JSONNode) {
    switch node {
    case .literal(let text):
      bytes.append(
        contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    case .number(let text):
      var text = text
      text.withUTF8 { bytes.append(contentsOf: $0) }
    case .integer(let value):
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      writeDigits(value.magnitude)
    case .unsigned(let value):
      writeDigits(value)
    case .string(let text):
      writeString(text)
    case .array(let array):
      guard enter() else { return }
      defer { depth -= 1 }
      bytes.append(UInt8(ascii: "["))
      for (index, item) in array.items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(item)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      guard enter() else { return }
      defer { depth -= 1 }
      let members = object.members
      bytes.append(UInt8(ascii: "{"))
      object.withSortedOrder { order in
        for index in order { writeMember(members, at: index) }
      }
      if members.isEmpty {
        bytes.append(UInt8(ascii: "}"))
      } else {
        bytes[bytes.count - 1] = UInt8(ascii: "}")
      }
    }
  }

  /// Goes one container deeper; `false` past `deepest`.
  private mutating func enter() -> Bool {
    guard depth < deepest else {
      isTooDeep = true
      return false
    }
    depth += 1
    return true
  }

  /// A member and the comma after it (the last becomes the closing brace).
  private mutating func writeMember(_ members: [(key: String, value: JSONNode)], at index: Int) {
    if writeString(members[index].key), members.count > 1 { hasNonASCIIKeys = true }
    bytes.append(UInt8(ascii: ":"))
    write(members[index].value)
    bytes.append(UInt8(ascii: ","))
  }

  private mutating func writeDigits(_ value: UInt64) {
    // Twenty digits at most, written from the end.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      var rest = value
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
    }
  }

  /// `JSONEncoder`'s escapes: quote, backslash, slash, the short control escapes, and
  /// `\u00XX` for the other control bytes; everything else as its UTF-8 bytes. Returns
  /// whether the text had a byte outside ASCII.
  @discardableResult
  private mutating func writeString(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
      bytes.append(UInt8(ascii: "\""))
      if !utf8.contains(where: Self.isSpecial) {
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
        return false
      }
      var wide = false
      var start = 0
      for (index, byte) in utf8.enumerated() {
        if byte >= 0x80 {
          wide = true
          continue
        }
        guard let escape = Self.escape(byte) else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        bytes.append(UInt8(ascii: "\\"))
        if escape != UInt8(ascii: "u") {
          bytes.append(escape)
          continue
        }
        let hex: StaticString = "0123456789abcdef"
        bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30])
        bytes.append(hex.utf8Start[Int(byte >> 4)])
        bytes.append(hex.utf8Start[Int(byte & 0xF)])
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
      bytes.append(UInt8(ascii: "\""))
      return wide
    }
  }

  /// Whether a byte is escaped, or is part of a character outside ASCII.
  private static func isSpecial(_ byte: UInt8) -> Bool {
    byte >= 0x80 || escape(byte) != nil
  }

  /// The letter after the backslash for an ASCII byte that needs one (`u` for `\u00XX`).
  private static func escape(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
    case 0x08: UInt8(ascii: "b")
    case 0x0C: UInt8(ascii: "f")
    case 0x0A: UInt8(ascii: "n")
    case 0x0D: UInt8(ascii: "r")
    case 0x09: UInt8(ascii: "t")
    case 0x00..<0x20: UInt8(ascii: "u")
    default: nil
    }
  }
}

extension JSONNode {
  /// Whether an object has canonically equal keys spelled differently, which
  /// `JSONEncoder`'s dictionary merges into one (the first spelling, the last value) and
  /// this writer would write as two.
  func hasMergedKeys() -> Bool {
    switch self {
    case .array(let array): return array.items.contains { $0.hasMergedKeys() }
    case .object(let object):
      var seen = Set<String>()
      var merged = false
      object.withSortedOrder { order in
        merged = order.contains { !seen.insert(object.members[$0].key).inserted }
      }
      return merged || object.members.contains { $0.value.hasMergedKeys() }
    default: return false
    }
  }
}

/// One value's encoder; a nested value gets its own, which points at its parent for the
/// coding path.
private final class NodeEncoder: Encoder, SingleValueEncodingContainer {
  let parent: NodeEncoder?
  let key: (any CodingKey)?
  @exclusivity(unchecked) var result: JSONNode?
  /// Whether the value's `encode(to:)` returned and its node was taken: `JSONEncoder`
  /// takes a copy there, so what is written into its containers after is lost to it.
  @exclusivity(unchecked) private var isFinished = false
  /// Whether the text must be `JSONEncoder`'s; read once, at the top.
  var isRefused: Bool { root.refused }
  @exclusivity(unchecked) private var refused = false
  private var root: NodeEncoder { parent?.root ?? self }

  init(parent: NodeEncoder?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var encoder: NodeEncoder? = self
    while let current = encoder {
      if let key = current.key { path.append(key) }
      encoder = current.parent
    }
    return path.reversed()
  }

  /// Types `JSONEncoder` writes its own way, not through their `encode(to:)`: `Date` and
  /// `Data` by its strategies, `URL` as its absolute string, `Decimal` by its description.
  static func isSpecialCased<T>(_ type: T.Type) -> Bool {
    type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
  }

  /// Makes the whole text `JSONEncoder`'s, for good: where a call cannot throw
  /// (`superEncoder()`, a container of another kind), and before anything this encoder
  /// throws, since the value's own code may catch it and go on where `JSONEncoder` would
  /// not have thrown.
  /// - Returns: The error to throw, where the call throws.
  @discardableResult
  func refuse() -> Refused {
    root.refused = true
    return Refused()
  }

  /// Refuses a write into this encoder's containers once its node was taken.
  @inline(__always)
  func refuseIfFinished() {
    if isFinished { refuse() }
  }

  /// The node of a value encoded below this encoder; `{}` when it encodes nothing, as
  /// `JSONEncoder` writes it.
  func node<T: Encodable>(of value: T, key: (any CodingKey)?) throws -> JSONNode {
    let child = NodeEncoder(parent: self, key: key)
    do {
      if Self.isSpecialCased(T.self) { throw Refused() }
      try value.encode(to: child)
    } catch {
      refuse()
      throw error
    }
    child.isFinished = true
    return child.result ?? .object(ObjectNode())
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    refuseIfFinished()
    switch result {
    case .object(let object):
      return KeyedEncodingContainer(ObjectContainer(encoder: self, object: object, path: []))
    case nil:
      let object = ObjectNode()
      result = .object(object)
      return KeyedEncodingContainer(ObjectContainer(encoder: self, object: object, path: []))
    default:
      refuse()
      return KeyedEncodingContainer(ObjectContainer(encoder: self, object: ObjectNode(), path: []))
    }
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    refuseIfFinished()
    switch result {
    case .array(let array):
      return ArrayContainer(encoder: self, array: array, path: [])
    case nil:
      let array = ArrayNode()
      result = .array(array)
      return ArrayContainer(encoder: self, array: array, path: [])
    default:
      refuse()
      return ArrayContainer(encoder: self, array: ArrayNode(), path: [])
    }
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  private func encodeSingle(_ node: JSONNode) throws {
    refuseIfFinished()
    guard result == nil else { throw refuse() }
    result = node
  }

  func encodeNil() throws { try encodeSingle(.null) }
  func encode(_ value: Bool) throws { try encodeSingle(.bool(value)) }
  func encode(_ value: String) throws { try encodeSingle(.string(value)) }
  func encode(_ value: Double) throws { try encodeSingle(.number(value)) }
  func encode(_ value: Float) throws { try encodeSingle(.number(value)) }
  func encode(_ value: Int) throws { try encodeSingle(.number(value)) }
  func encode(_ value: Int8) throws { try encodeSingle(.number(value)) }
  func encode(_ value: Int16) throws { try encodeSingle(.number(value)) }
  func encode(_ value: Int32) throws { try encodeSingle(.number(value)) }
  func encode(_ value: Int64) throws { try encodeSingle(.number(value)) }
  func encode(_ value: UInt) throws { try encodeSingle(.number(value)) }
  func encode(_ value: UInt8) throws { try encodeSingle(.number(value)) }
  func encode(_ value: UInt16) throws { try encodeSingle(.number(value)) }
  func encode(_ value: UInt32) throws { try encodeSingle(.number(value)) }
  func encode(_ value: UInt64) throws { try encodeSingle(.number(value)) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: Int128) throws { throw refuse() }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: UInt128) throws { throw refuse() }
  func encode<T: Encodable>(_ value: T) throws {
    refuseIfFinished()
    guard result == nil else { throw refuse() }
    result = try node(of: value, key: nil)
  }
}

private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: NodeEncoder
  let object: ObjectNode
  /// Keys of nested containers between the encoder and this one.
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { encoder.codingPath + path }

  private func set(_ node: JSONNode, for key: Key) {
    encoder.refuseIfFinished()
    object.set(node, for: key.stringValue)
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    set(.bool(value), for: key)
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    set(.string(value), for: key)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    set(.number(value), for: key)
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws { throw encoder.refuse() }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws { throw encoder.refuse() }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    encoder.refuseIfFinished()
    let node = try encoder.node(of: value, key: key)
    object.set(node, for: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.refuseIfFinished()
    guard case .object(let nested)? = try? object.nested(at: key.stringValue, isObject: true)
    else {
      encoder.refuse()
      return KeyedEncodingContainer(
        ObjectContainer<NestedKey>(encoder: encoder, object: ObjectNode(), path: path + [key]))
    }
    return KeyedEncodingContainer(
      ObjectContainer<NestedKey>(encoder: encoder, object: nested, path: path + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.refuseIfFinished()
    guard case .array(let nested)? = try? object.nested(at: key.stringValue, isObject: false)
    else {
      encoder.refuse()
      return ArrayContainer(encoder: encoder, array: ArrayNode(), path: path + [key])
    }
    return ArrayContainer(encoder: encoder, array: nested, path: path + [key])
  }

  mutating func superEncoder() -> any Encoder { encoder.refusedEncoder() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.refusedEncoder() }
}

private struct ArrayContainer: UnkeyedEncodingContainer {
  let encoder: NodeEncoder
  let array: ArrayNode
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { encoder.codingPath + path }
  var count: Int { array.items.count }

  private func append(_ node: JSONNode) {
    encoder.refuseIfFinished()
    array.items.append(node)
  }

  mutating func encodeNil() throws { append(.null) }
  mutating func encode(_ value: Bool) throws {
    append(.bool(value))
  }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws { append(.number(value)) }
  mutating func encode(_ value: Float) throws { append(.number(value)) }
  mutating func encode(_ value: Int) throws { append(.number(value)) }
  mutating func encode(_ value: Int8) throws { append(.number(value)) }
  mutating func encode(_ value: Int16) throws { append(.number(value)) }
  mutating func encode(_ value: Int32) throws { append(.number(value)) }
  mutating func encode(_ value: Int64) throws { append(.number(value)) }
  mutating func encode(_ value: UInt) throws { append(.number(value)) }
  mutating func encode(_ value: UInt8) throws { append(.number(value)) }
  mutating func encode(_ value: UInt16) throws { append(.number(value)) }
  mutating func encode(_ value: UInt32) throws { append(.number(value)) }
  mutating func encode(_ value: UInt64) throws { append(.number(value)) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128) throws { throw encoder.refuse() }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128) throws { throw encoder.refuse() }
  mutating func encode<T: Encodable>(_ value: T) throws {
    encoder.refuseIfFinished()
    let node = try encoder.node(of: value, key: IndexKey(array.items.count))
    array.items.append(node)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = ObjectNode()
    let key = IndexKey(array.items.count)
    append(.object(nested))
    return KeyedEncodingContainer(
      ObjectContainer<NestedKey>(encoder: encoder, object: nested, path: path + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ArrayNode()
    let key = IndexKey(array.items.count)
    append(.array(nested))
    return ArrayContainer(encoder: encoder, array: nested, path: path + [key])
  }

  mutating func superEncoder() -> any Encoder { encoder.refusedEncoder() }
}

extension NodeEncoder {
  /// An encoder whose work is thrown away, for a call that cannot throw.
  fileprivate func refusedEncoder() -> any Encoder {
    refuse()
    return NodeEncoder(parent: self, key: nil)
  }
}

/// The coding key of an array's element, as in an error's coding path.
private struct IndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }
  init(_ index: Int) { intValue = index }
  init?(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}
