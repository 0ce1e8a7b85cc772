import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads an XML property list whose root is a dictionary, streaming once over its bytes.
///
/// `PropertyListSerialization` on Linux builds every value as a Foundation object and
/// bridges it back, which made a suite's cold open slow. This reader walks the bytes once
/// (no DOM, `XMLParser` or `NSString`) and builds Swift values directly, `UInt64` above
/// `Int64.max` as Foundation does; the root's values as the store holds them. Its cost is
/// linear: one pass, one allocation per non-small string, array, dictionary or data.
///
/// It reads what this library's and Foundation's XML writers produce, plus comments, CDATA
/// and character references. Anything else returns `nil`, for `PropertyListSerialization`
/// to read or judge damaged: another encoding, a byte order mark, a DOCTYPE with an
/// internal subset, attributes or spaces in value tags, `+` or hexadecimal integers,
/// integers beyond 64 bits, other date forms, base64 without padding, invalid UTF-8,
/// anything after `</plist>`, nesting deeper than ``maximumDepth``, malformed input. It
/// never traps on input: reads are bounds-checked, input-driven arithmetic checks overflow.
package enum PropertyListXMLReader {
  /// Deeper nesting is left to Foundation, so no file exhausts the stack (a frame a level).
  static let maximumDepth = 512

  /// The dictionary at the root of the XML property list in `data`.
  ///
  /// - Parameter data: the bytes of a property-list file.
  /// - Returns: the root dictionary, or `nil` when the file is not one this reader fully
  ///   understands: the caller must then ask `PropertyListSerialization`.
  ///
  ///       let values = PropertyListXMLReader.dictionary(from: data)  // ["volume": 7]
  static func dictionary(from data: Data) -> [String: Any]? {
    data.withUnsafeBytes { storedObjects(in: $0) }?.objects
  }

  /// ``dictionary(from:)`` with the values as the store holds them: the store's reading.
  ///
  /// - Parameter bytes: the bytes of a property-list file.
  /// - Returns: the root dictionary, or `nil` when the file is not one this reader fully
  ///   understands. Cost: one pass over the bytes.
  ///
  ///       let values = bytes.withUnsafeBytes(PropertyListXMLReader.storedObjects)
  package static func storedObjects(in bytes: UnsafeRawBufferPointer) -> [String: StoredObject]? {
    read(bytes) { $0.rootDictionary() }
  }

  /// The root dictionary as a store keeps it after an open: a ``PropertyListIndex`` when
  /// every key is plain ASCII text (no character reference, no CDATA) and none is
  /// repeated, else the dictionary ``storedObjects(in:)`` makes; `nil` for exactly what
  /// that refuses.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The root dictionary. Cost: the values' reads, and a hash of each key's
  ///   bytes, no `String`, while the keys allow an index; past the first key that does
  ///   not, what ``storedObjects(in:)`` costs, with the keys before it made `String`s once.
  ///
  ///     if case .indexed(let index) = data.withUnsafeBytes(PropertyListXMLReader.root) { … }
  package static func root(in bytes: UnsafeRawBufferPointer) -> Root? {
    read(bytes) { $0.rootIndexedWhilePossible() }
  }

  /// A root dictionary as ``root(in:)`` reads it.
  package enum Root {
    case indexed(PropertyListIndex)
    case dictionary([String: StoredObject])
  }

  /// The root value, of any property-list type, of the XML property list in `data`; for
  /// the `defaults` tool, which also reads values written as XML on its command line.
  ///
  /// - Parameter data: the bytes of an XML property list.
  /// - Returns: the root value, or `nil` when the reader does not fully understand the
  ///   document (ask `PropertyListSerialization` then).
  ///
  ///       let tags = PropertyListXMLReader.propertyList(from: data) as? [Any]
  package static func propertyList(from data: Data) -> Any? {
    data.withUnsafeBytes { propertyList(in: $0) }
  }

  static func propertyList(in bytes: UnsafeRawBufferPointer) -> Any? {
    read(bytes) { $0.value()?.object }
  }

  private static func read<Root>(
    _ bytes: UnsafeRawBufferPointer, root: (inout Cursor) -> Root?
  ) -> Root? {
    let staging = spareStaging.take(forBytes: 0) ?? Staging()
    var reader = Cursor(bytes: bytes, staging: consume staging)
    let document = reader.document(root: root)
    spareStaging.keep(reader.emptiedStaging())
    return document
  }

  /// Nested containers stage here (the root dictionary goes straight to its table), so
  /// a file of nested values reuses the arrays of the read before.
  private static let spareStaging = Spare<Staging> { $0.bytes }
}

/// The arrays a read stages its containers and texts in, kept empty between reads.
private struct Staging {
  /// Text with references or CDATA, assembled here.
  var text: [UInt8] = []
  /// Innermost last: a dictionary is built once its size is known, so it never rehashes
  /// as it grows (rehashing is costly at 100,000 keys).
  var entries: [(String, StoredObject)] = []
  var elements: [Any] = []

  var bytes: Int {
    text.capacity + entries.capacity * MemoryLayout<(String, StoredObject)>.stride
      + elements.capacity * MemoryLayout<Any>.stride
  }

  /// Bytes of text per entry the root table's estimate assumes: at least 18
  /// (`<key></key><true/>`), 32 or more in most files.
  static let textPerEntry = 32

  static func entryCount(forDocumentOf count: Int) -> Int { count / textPerEntry }

  mutating func empty() {
    text.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
    elements.removeAll(keepingCapacity: true)
  }
}

private struct Cursor {
  let bytes: UnsafeRawBufferPointer
  var position = 0
  var depth = 0
  var staging: Staging

  /// `bytes` as a string when they are valid UTF-8, else `nil`. Decoded and re-encoded:
  /// `String(validating:)` needs macOS 15 / iOS 18.
  static func validatedString(_ bytes: UnsafeRawBufferPointer) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return String(validating: bytes, as: UTF8.self)
    }
    let string = String(decoding: bytes, as: UTF8.self)
    return string.utf8.elementsEqual(bytes) ? string : nil
  }

  init(bytes: UnsafeRawBufferPointer, staging: Staging) {
    self.bytes = bytes
    self.staging = staging
  }

  /// The staging arrays, emptied and moved out, so the next reader holds them uniquely.
  mutating func emptiedStaging() -> Staging {
    staging.empty()
    defer { staging = Staging() }
    return staging
  }

  // MARK: Bytes

  var isAtEnd: Bool { position >= bytes.count }

  /// The byte `offset` bytes ahead, or `nil` past the end.
  @inline(__always)
  func peek(_ offset: Int = 0) -> UInt8? {
    let index = position + offset
    return index < bytes.count ? bytes[index] : nil
  }

  /// Whether `literal` comes next; moves past it when it does.
  @inline(__always)
  mutating func consume(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - position >= count, let base = bytes.baseAddress,
      memcmp(base + position, literal.utf8Start, count) == 0
    else { return false }
    position += count
    return true
  }

  /// Moves to the next `byte`; `false` (at the end) when there is none. Through `memchr`,
  /// which is vectorised: many times faster than a byte loop on a large value.
  mutating func skip(to byte: UInt8) -> Bool {
    guard position < bytes.count, let base = bytes.baseAddress,
      let found = memchr(base + position, Int32(byte), bytes.count - position)
    else {
      position = bytes.count
      return false
    }
    position = base.distance(to: UnsafeRawPointer(found))
    return true
  }

  /// Moves past the next occurrence of `literal`; `false` when there is none.
  mutating func skip(past literal: StaticString) -> Bool {
    let first = literal.utf8Start.pointee
    while skip(to: first) {
      if consume(literal) { return true }
      position += 1
    }
    return false
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  /// Skips white space and comments, the only things allowed between elements. Inlined,
  /// comments apart: a call twice a key was a visible part of a suite's open.
  @inline(__always)
  mutating func skipSpace() -> Bool {
    skipWhiteSpace()
    let index = position
    guard index < bytes.count - 2, bytes[index] == UInt8(ascii: "<"),
      bytes[index + 1] == UInt8(ascii: "!")
    else { return true }
    return skipComments()
  }

  /// Skips comments and the space after each, from a `<!` (which may be something else).
  @inline(never)
  mutating func skipComments() -> Bool {
    while true {
      guard peek() == UInt8(ascii: "<") && peek(1) == UInt8(ascii: "!") && peek(2) == 0x2D
      else { return true }
      guard consume("<!--"), skip(past: "-->") else { return false }
      skipWhiteSpace()
    }
  }

  @inline(__always)
  mutating func skipWhiteSpace() {
    var index = position  // local, as in `text(closing:)`
    while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
    position = index
  }

  // MARK: Document

  /// Prolog, `<plist …>`, the root value, `</plist>`, and nothing after but space.
  mutating func document<Root>(root readRoot: (inout Cursor) -> Root?) -> Root? {
    if consume("<?xml"), !xmlDeclaration() { return nil }
    guard skipSpace() else { return nil }
    if consume("<!DOCTYPE") {
      // Without an internal subset a DOCTYPE cannot change how the rest reads.
      while let byte = peek(), byte != UInt8(ascii: ">") {
        guard byte != UInt8(ascii: "["), byte != UInt8(ascii: "<") else { return nil }
        position += 1
      }
      guard consume(">"), skipSpace() else { return nil }
    }
    guard consume("<plist"), let next = peek() else { return nil }
    if next != UInt8(ascii: ">") {
      // Attributes (`version="1.0"`) are ignored, as Foundation ignores them.
      guard Self.isSpace(next) else { return nil }
      while let byte = peek(), byte != UInt8(ascii: ">") {
        guard byte != UInt8(ascii: "<"), byte != UInt8(ascii: "/") else { return nil }
        position += 1
      }
    }
    guard consume(">"), skipSpace(), let root = readRoot(&self) else { return nil }
    guard skipSpace(), consume("</plist>"), skipSpace(), isAtEnd else { return nil }
    return root
  }

  /// The rest of `<?xml … ?>`: accepted when it names no encoding or UTF-8 (any other
  /// encoding is left to Foundation, which converts it).
  mutating func xmlDeclaration() -> Bool {
    guard let next = peek(), Self.isSpace(next) else { return false }
    let start = position
    guard skip(past: "?>") else { return false }
    let end = position - 2
    position = start
    defer { position = end + 2 }
    guard skip(past: "encoding"), position <= end else { return true }
    while let byte = peek(), Self.isSpace(byte) || byte == UInt8(ascii: "=") { position += 1 }
    guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
      return false
    }
    position += 1
    let nameStart = position
    guard skip(to: quote), position <= end else { return false }
    let name = bytes[nameStart..<position]
    return name.count == 5
      && zip(name, "utf-8".utf8).allSatisfy { $0 == $1 || ($1 >= 0x61 && $0 == $1 - 0x20) }
  }

  // MARK: Values

  /// One value, its opening `<` at the position; `nil` for any element not understood.
  mutating func value() -> StoredObject? {
    guard consume("<"), let tag = peek() else { return nil }
    switch tag {
    case UInt8(ascii: "s"):
      if consume("string>") { return text(closing: "</string>").map(StoredObject.string) }
      if consume("string/>") { return .string("") }
    case UInt8(ascii: "i"):
      if consume("integer>") { return integer() }
    case UInt8(ascii: "r"):
      if consume("real>") { return real().map(StoredObject.double) }
    case UInt8(ascii: "t"):
      if consume("true/>") { return .bool(true) }
    case UInt8(ascii: "f"):
      if consume("false/>") { return .bool(false) }
    case UInt8(ascii: "d"):
      if consume("dict>") { return dictionaryContents(\.object).map { .other($0) } }
      if consume("dict/>") { return .other([String: Any]()) }
      if consume("date>") { return date().map { .other($0) } }
      // `<data/>` is not here: Foundation refuses it.
      if consume("data>") { return base64().map { .other($0) } }
    case UInt8(ascii: "a"):
      if consume("array>") { return arrayContents().map { .other($0) } }
      if consume("array/>") { return .other([Any]()) }
    default:
      break
    }
    return nil
  }

  /// The root dictionary, its values as the store holds them; `nil` for any other root.
  mutating func rootDictionary() -> [String: StoredObject]? {
    if consume("<dict/>") { return [:] }
    guard consume("<dict>") else { return nil }
    depth += 1
    defer { depth -= 1 }
    return rootContents(into: [String: StoredObject](minimumCapacity: rootEstimate))
  }

  /// How many entries the root may hold, from the document's length; capped.
  var rootEstimate: Int {
    min(Staging.entryCount(forDocumentOf: bytes.count), Self.largestEstimate)
  }

  /// The root's entries through `</dict>`, put into `values` (made from the document's
  /// length, so it does not rehash as it fills, and no entry is staged and moved twice, as
  /// a nested dictionary's are). A table the estimate made far too large (a few large
  /// values) is made again at its size, as the store keeps it.
  mutating func rootContents(into values: consuming [String: StoredObject])
    -> [String: StoredObject]?
  {
    var values = values
    while true {
      switch nextEntry() {
      // A repeated key keeps its last value, as in Foundation.
      case .pair(let key, let value): values[key] = consume value
      case .end: return values.shrunkToFit()
      case .malformed: return nil
      }
    }
  }

  /// The root dictionary as an index while each key is plain ASCII text (no reference, no
  /// CDATA) and none is repeated; from the first key that is not, a dictionary, made of
  /// the entries so far and read on as ``rootDictionary()`` reads. `nil` for exactly what
  /// ``rootDictionary()`` refuses.
  mutating func rootIndexedWhilePossible() -> PropertyListXMLReader.Root? {
    if consume("<dict/>") {
      return PropertyListIndex.Builder(over: bytes, expectedCount: 0).map { .indexed($0.index()) }
        ?? .dictionary([:])
    }
    guard consume("<dict>") else { return nil }
    depth += 1
    defer { depth -= 1 }
    // A few large values would make an estimate from the length far too large: the table
    // starts at most middling, and the first time it fills, the rest is projected from the
    // share of the document read so far.
    guard
      var builder = PropertyListIndex.Builder(
        over: bytes, expectedCount: min(rootEstimate, Self.firstEstimate))
    else {
      return rootContents(into: [String: StoredObject](minimumCapacity: rootEstimate))
        .map { .dictionary($0) }
    }
    guard readEntries(into: &builder) else { return continueAsDictionary(after: builder) }
    return .indexed(builder.index())
  }

  /// Reads the root's entries into `builder` through `</dict>`: `true` at its end, `false`
  /// at the first entry the index declines (a key that is not plain ASCII text, a key
  /// twice, markup neither reader reads), the position left at that entry's start.
  mutating func readEntries(into builder: inout PropertyListIndex.Builder) -> Bool {
    var isProjected = false
    while true {
      let entryStart = position
      switch nextEntry(key: { $0.asciiTextRange(closing: "</key>") }) {
      case .pair(let key, let value):
        if builder.isFull && !isProjected {
          isProjected = true
          let projected = builder.count * (bytes.count / position + 1)
          guard builder.reserve(min(projected, Self.largestEstimate)) else {
            position = entryStart
            return false
          }
        }
        guard builder.insert(keyAt: key.lowerBound, count: key.count, object: consume value)
        else {
          position = entryStart
          return false
        }
      case .end: return true
      case .malformed:
        position = entryStart
        return false
      }
    }
  }

  /// The entries `builder` holds as a dictionary, then the rest from the position. Out of
  /// line: the index's loop stays small enough to inline its entry reader.
  @inline(never)
  mutating func continueAsDictionary(after builder: borrowing PropertyListIndex.Builder)
    -> PropertyListXMLReader.Root?
  {
    rootContents(into: builder.dictionary(minimumCapacity: rootEstimate)).map { .dictionary($0) }
  }

  enum Entry<Key> {
    case pair(key: Key, value: StoredObject)
    /// `</dict>`
    case end
    /// Markup that is not a key, a key `readKey` refuses, a value not understood, or the
    /// end of the document.
    case malformed
  }

  /// The next entry of a dictionary, or its end; the key read by `readKey` after `<key>`.
  @inline(__always)
  mutating func nextEntry<Key>(key readKey: (inout Cursor) -> Key?) -> Entry<Key> {
    guard skipSpace() else { return .malformed }
    if consume("</dict>") { return .end }
    guard consume("<key>"), let key = readKey(&self), skipSpace(), let value = value() else {
      return .malformed
    }
    return .pair(key: key, value: value)
  }

  /// The next entry of a dictionary, its key a `String`, or its end.
  @inline(__always)
  mutating func nextEntry() -> Entry<String> {
    nextEntry(key: { $0.text(closing: "</key>") })
  }

  /// Past it a table grows as it fills: a 30 MB document reserves no 40 MB of table.
  static let largestEstimate = 1 << 18

  /// An index's first table, before it can project: rehashing it costs a hash a key.
  static let firstEstimate = 1 << 12

  /// The entries after `<dict>`, through `</dict>`, each value made an `Element` (an `Any`
  /// in nested dictionaries). A repeated key keeps its last value, as in Foundation.
  mutating func dictionaryContents<Element>(
    _ element: (consuming StoredObject) -> Element
  ) -> [String: Element]? {
    guard depth < PropertyListXMLReader.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    let start = staging.entries.count
    defer { staging.entries.removeSubrange(start...) }
    entries: while true {
      switch nextEntry() {
      case .pair(let key, let value): staging.entries.append((key, consume value))
      case .end: break entries
      case .malformed: return nil
      }
    }
    var values = [String: Element](minimumCapacity: staging.entries.count - start)
    // Moved out from the end, not copied from the start; an earlier repeated key found
    // after the later one is put back, so the last still wins.
    while staging.entries.count > start {
      let (key, value) = staging.entries.removeLast()
      // A `switch`, not `if let`: on the `nil` path, every key's, `if let` left a generic
      // destroy of the empty optional.
      switch values.updateValue(element(value), forKey: key) {
      case .some(let later): values[key] = later
      case .none: break
      }
    }
    return values
  }

  mutating func arrayContents() -> [Any]? {
    guard depth < PropertyListXMLReader.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    let start = staging.elements.count
    defer { staging.elements.removeSubrange(start...) }
    while true {
      guard skipSpace() else { return nil }
      if consume("</array>") { return Array(staging.elements[start...]) }
      guard let element = value() else { return nil }
      staging.elements.append(element.object)
    }
  }

  /// Character data through `closing`, with references and CDATA sections decoded;
  /// `nil` for any other markup inside, an unknown reference or invalid UTF-8 (which
  /// Foundation would replace rather than refuse).
  mutating func text(closing: StaticString) -> String? {
    let start = position
    let isASCII = skipCharacterData()
    let end = position
    if consume(closing) {
      let content = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      guard isASCII else { return Self.validatedString(content) }
      // ASCII cannot be invalid. Made in place: `String(decoding:as:)` costs more a key.
      return String(unsafeUninitializedCapacity: content.count) { buffer in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: content)
        return content.count
      }
    }
    staging.text.removeAll(keepingCapacity: true)
    staging.text.append(contentsOf: bytes[start..<end])
    while let byte = peek() {
      switch byte {
      case UInt8(ascii: "<"):
        if consume(closing) { return staging.text.withUnsafeBytes { Self.validatedString($0) } }
        guard consume("<![CDATA[") else { return nil }
        let contentStart = position
        guard skip(past: "]]>") else { return nil }
        staging.text.append(contentsOf: bytes[contentStart..<position - 3])
      case UInt8(ascii: "&"):
        guard reference() else { return nil }
      default:
        staging.text.append(byte)
        position += 1
      }
    }
    return nil
  }

  /// Where character data through `closing` lies, when its bytes are all its text (no
  /// reference, no CDATA) and ASCII; `nil` otherwise, whatever ``text(closing:)`` would say.
  @inline(__always)
  mutating func asciiTextRange(closing: StaticString) -> Range<Int>? {
    let start = position
    let isASCII = skipCharacterData()
    let end = position
    guard isASCII, consume(closing) else { return nil }
    return start..<end
  }

  /// Moves to the next `<` or `&` (or the end); whether every byte passed is ASCII.
  @inline(__always)
  mutating func skipCharacterData() -> Bool {
    // A local index: `position` lives in `self`, which the loops would store every byte.
    var end = position
    // Eight bytes at a time while none is `<` or `&`, then byte by byte.
    var wordBits: UInt64 = 0
    if let base = bytes.baseAddress {
      while bytes.count - end >= 8 {
        let word = base.loadUnaligned(fromByteOffset: end, as: UInt64.self)
        if Self.hasByte(UInt8(ascii: "<"), in: word) || Self.hasByte(UInt8(ascii: "&"), in: word) {
          break
        }
        wordBits |= word
        end += 8
      }
    }
    var bits: UInt8 = wordBits & 0x8080_8080_8080_8080 == 0 ? 0 : 0x80
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
      bits |= byte
      end += 1
    }
    position = end
    return bits < 0x80
  }

  /// Whether any byte of `word` is `byte` (the zero-byte test, `byte` XORed out; exact).
  @inline(__always)
  static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
    let lanes = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    return (lanes &- 0x0101_0101_0101_0101) & ~lanes & 0x8080_8080_8080_8080 != 0
  }

  /// Appends the character a reference (`&amp;`, `&#233;`, `&#xE9;`) stands for to
  /// `staging.text`. References to NUL or beyond Unicode are left to Foundation.
  mutating func reference() -> Bool {
    if consume("&amp;") {
      staging.text.append(UInt8(ascii: "&"))
    } else if consume("&lt;") {
      staging.text.append(UInt8(ascii: "<"))
    } else if consume("&gt;") {
      staging.text.append(UInt8(ascii: ">"))
    } else if consume("&quot;") {
      staging.text.append(UInt8(ascii: "\""))
    } else if consume("&apos;") {
      staging.text.append(UInt8(ascii: "'"))
    } else if consume("&#x") {
      return numericReference(radix: 16)
    } else if consume("&#") {
      return numericReference(radix: 10)
    } else {
      return false
    }
    return true
  }

  mutating func numericReference(radix: UInt32) -> Bool {
    var code: UInt32 = 0
    var digits = 0
    while let byte = peek(), let digit = Self.digit(byte, radix: radix) {
      code = code * radix + digit
      digits += 1
      position += 1
      if code > 0x10FFFF { return false }  // also keeps `code * radix` from overflowing
    }
    guard digits > 0, consume(";"), code != 0, let scalar = Unicode.Scalar(code) else {
      return false
    }
    UTF8.encode(scalar) { staging.text.append($0) }
    return true
  }

  static func digit(_ byte: UInt8, radix: UInt32) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte &- UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
      return UInt32(byte &- UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
      return UInt32(byte &- UInt8(ascii: "A")) + 10
    default: return nil
    }
  }

  /// `-?[0-9]+`: `Int` within `Int64` (``StoredObject/integer(_:)``: an `Int64` where
  /// `Int` is 32 bits and cannot hold it), `UInt64` above it (Foundation's `Q` numbers),
  /// `nil` beyond either range (Foundation refuses those).
  mutating func integer() -> StoredObject? {
    let negative = consume("-")
    var magnitude: UInt64 = 0
    let start = position
    var index = start  // local, as in `text(closing:)`
    while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
      let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow, !carry else { return nil }
      magnitude = sum
      index += 1
    }
    position = index
    guard index > start, consume("</integer>") else { return nil }
    if negative {
      if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
      guard magnitude <= UInt64(Int64.max) else { return nil }
      return .integer(-Int64(magnitude))
    }
    if magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
    return .other(magnitude)
  }

  /// A decimal real (`0.1`, `-1e+300`, `.5`, `5.`) or the words Foundation writes and
  /// reads for the non-finite values (`nan`, `+infinity`, `-infinity`, `inf`, …).
  mutating func real() -> Double? {
    let start = position
    guard skip(to: UInt8(ascii: "<")) else { return nil }
    let content = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    guard consume("</real>") else { return nil }
    if let special = Self.nonFiniteReal(content) { return special }
    guard Self.isDecimalReal(content) else { return nil }
    // Short text: one small string, no allocation; strtod rounds as Foundation does.
    return Double(String(decoding: content, as: UTF8.self))
  }

  static func nonFiniteReal(_ text: UnsafeRawBufferPointer) -> Double? {
    switch String(decoding: text.prefix(10), as: UTF8.self) {
    case "nan", "NaN": return .nan
    case "+infinity", "infinity", "inf": return .infinity
    case "-infinity", "-inf": return -.infinity
    default: return nil
    }
  }

  /// `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?`, nothing else (no spaces, no
  /// hexadecimal), so that `Double(_:)` reads exactly what Foundation's `strtod` would.
  static func isDecimalReal(_ text: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    func sign() { if index < text.count, text[index] == 0x2B || text[index] == 0x2D { index += 1 } }
    func digits() -> Int {
      let start = index
      while index < text.count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
      return index - start
    }
    sign()
    var mantissa = digits()
    if index < text.count, text[index] == UInt8(ascii: ".") {
      index += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
      index += 1
      sign()
      guard digits() > 0 else { return false }
    }
    return index == text.count
  }

  /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, proleptic Gregorian as in Foundation, computed
  /// directly: a `DateFormatter` costs tens of microseconds a date. Out-of-range fields,
  /// which Foundation rolls over, are left to it.
  mutating func date() -> Any? {
    guard bytes.count - position >= 20 else { return nil }
    func number(_ offset: Int, _ count: Int) -> Int? {
      var value = 0
      for index in position + offset..<position + offset + count {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte &- UInt8(ascii: "0"))
      }
      return value
    }
    func separator(_ offset: Int, _ character: Unicode.Scalar) -> Bool {
      bytes[position + offset] == UInt8(ascii: character)
    }
    guard let year = number(0, 4), separator(4, "-"), let month = number(5, 2),
      separator(7, "-"), let day = number(8, 2), separator(10, "T"), let hour = number(11, 2),
      separator(13, ":"), let minute = number(14, 2), separator(16, ":"),
      let second = number(17, 2), separator(19, "Z"),
      year >= 1, (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    position += 20
    guard consume("</date>") else { return nil }
    let days = Self.daysSince1970(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
  /// `days_from_civil`), for years 1 to 9999 only, so no arithmetic can overflow.
  static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = shiftedYear / 400  // shiftedYear >= 0 here
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Base64 through `</data>`, white space anywhere, decoded through a table in one pass
  /// into one buffer. Not `Data(base64Encoded:options:)`, which is no faster and accepts
  /// stray characters Foundation reads otherwise; those and missing padding go to
  /// Foundation.
  mutating func base64() -> Any? {
    let start = position
    guard skip(to: UInt8(ascii: "<")) else { return nil }
    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    guard consume("</data>") else { return nil }
    var data = Data(count: text.count / 4 * 3)
    let written = data.withUnsafeMutableBytes { output -> Int? in
      Self.decodeBase64(text, into: output)
    }
    guard let written else { return nil }
    data.count = written
    return data
  }

  /// Decodes `text` into `output` (at least `text.count / 4 * 3` bytes); the number of
  /// bytes written, or `nil` for anything but base64 and white space.
  static func decodeBase64(
    _ text: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
  ) -> Int? {
    base64Table.withUnsafeBufferPointer { table in
      var written = 0
      var group: UInt32 = 0
      var sextets = 0
      var padding = 0
      var index = 0
      while index < text.count {
        // Four alphabet characters: other table entries have the top bit set, so the OR
        // is below 64 only when all four are sextets.
        if sextets == 0, padding == 0, text.count - index >= 4 {
          let first = table[Int(text[index])]
          let second = table[Int(text[index + 1])]
          let third = table[Int(text[index + 2])]
          let fourth = table[Int(text[index + 3])]
          if first | second | third | fourth < 64 {
            guard written + 3 <= output.count else { return nil }
            let quad =
              UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
            output[written] = UInt8(truncatingIfNeeded: quad >> 16)
            output[written + 1] = UInt8(truncatingIfNeeded: quad >> 8)
            output[written + 2] = UInt8(truncatingIfNeeded: quad)
            written += 3
            index += 4
            continue
          }
        }
        let value = table[Int(text[index])]
        index += 1
        if value < 64 {
          guard padding == 0 else { return nil }  // data after `=`
          group = group << 6 | UInt32(value)
          sextets += 1
          if sextets == 4 {
            guard written + 3 <= output.count else { return nil }
            output[written] = UInt8(truncatingIfNeeded: group >> 16)
            output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
            output[written + 2] = UInt8(truncatingIfNeeded: group)
            written += 3
            group = 0
            sextets = 0
          }
        } else if value == Self.space {
          continue
        } else if value == Self.pad {
          padding += 1
          guard sextets + padding <= 4 else { return nil }
        } else {
          return nil
        }
      }
      switch (sextets, padding) {
      case (0, 0): return written
      case (2, 2):
        guard written + 1 <= output.count else { return nil }
        output[written] = UInt8(truncatingIfNeeded: group >> 4)
        return written + 1
      case (3, 1):
        guard written + 2 <= output.count else { return nil }
        output[written] = UInt8(truncatingIfNeeded: group >> 10)
        output[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
        return written + 2
      default: return nil
      }
    }
  }

  static let space: UInt8 = 0xFE
  static let pad: UInt8 = 0xFD
  static let invalid: UInt8 = 0xFF

  /// Sextet values of the base64 alphabet; `space`, `pad` or `invalid` for other bytes.
  static let base64Table: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
      .utf8.enumerated()
    {
      table[Int(character)] = UInt8(index)
    }
    for character in " \t\n\r".utf8 { table[Int(character)] = space }
    table[Int(UInt8(ascii: "="))] = pad
    return table
  }()
}

extension Dictionary {
  /// The dictionary, or a copy the size of its contents when it holds far more room than
  /// entries (a root table sized from a document of a few large values).
  fileprivate func shrunkToFit() -> Self {
    guard capacity > 2 * count + 16 else { return self }
    var fitted = Self(minimumCapacity: count)
    for (key, value) in self { fitted[key] = value }
    return fitted
  }
}
