import Foundation

/// Reads a binary property list (`bplist00`) whose root is a dictionary, as the store holds
/// its values: the twin of ``PropertyListXMLReader`` for the format macOS keeps
/// preferences in, so that a binary file is not left to `PropertyListSerialization`,
/// which builds every value as a Foundation object and bridges it back.
///
/// It builds the same Swift values the XML reader builds: `String`, `Int` (or `UInt64`
/// above `Int64.max`), `Double`, `Bool`, `Date` (to the bit of its seconds), `Data`,
/// `[Any]` and `[String: Any]`, and a null or a UID as a ``PropertyListOpaque``, which the
/// binary writer writes back; the root dictionary's values as ``StoredObject``s. Anything
/// it is not sure of makes it return `nil`, and the caller falls back to
/// `PropertyListSerialization`, which also judges damage: another version than `00`, a
/// set, a UTF-8 string object, a dictionary that names one key twice (readers
/// disagree on which value wins; Foundation keeps the first), a 16-byte integer with a high half,
/// a dictionary key that is not a string, an offset or reference out of bounds, and
/// containers nested deeper than ``maximumDepth`` (which also ends a reference cycle).
/// It never traps on input: every read is bounds-checked (the offset table once, by the
/// trailer's check, and a container's references once, as a whole), and every size the
/// input gives is checked before it is used.
///
/// Cost: linear in the number of objects; each object is read once per reference to it,
/// up to eight reads an object (a file whose objects share their parts more than that,
/// which no writer makes, is left to Foundation rather than read exponentially). No
/// allocation but the values' own: references are read where they lie. For a file of
/// short integer keys, ``storedObjects(in:)`` takes about 1,000 instructions a key
/// (callgrind), most of them making the key's `String` (about 330) and inserting it into
/// the dictionary (about 470), which the XML reader pays too. A store's cold open takes
/// ``index(in:)`` instead, which makes neither (about 640 a key, and no dictionary's
/// scattered inserts): the dictionary waits for the first write (``StoredValues``).
package enum PropertyListBinaryReader {
  /// Containers nested deeper than this are left to Foundation.
  static let maximumDepth = 512

  /// The root dictionary's values, or `nil` when the bytes are not a binary property list
  /// this reader is sure of.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The values as the store holds them.
  ///
  ///     let values = data.withUnsafeBytes(PropertyListBinaryReader.storedObjects)
  package static func storedObjects(in bytes: UnsafeRawBufferPointer) -> [String: StoredObject]? {
    var values: [String: StoredObject] = [:]
    let isRead = forEachRootEntry(in: bytes) { _, count in
      values.reserveCapacity(count)
      return true
    } visit: { document, keyNumber, value in
      guard let key = document.string(at: keyNumber) else { return false }
      // A `switch`, not `== nil`: comparing left a generic destroy of the empty optional
      // (about 60 instructions a key), as in the XML reader.
      switch values.updateValue(consume value, forKey: consume key) {
      case .some: return false
      case .none: return true
      }
    }
    return isRead ? values : nil
  }

  /// The root dictionary as a ``PropertyListBinaryIndex``, for a document this reader is
  /// sure of whose keys are all ASCII strings; `nil` otherwise (then ``storedObjects(in:)``
  /// decides). Whatever it accepts, ``storedObjects(in:)`` accepts too: both read each
  /// value by the same code, with the same budget, and an ASCII key by the same checks.
  ///
  /// Cost: the values' reads, and for each key a hash of its bytes and their copy; no
  /// `String` is made.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The root dictionary, indexed.
  ///
  ///     let index = data.withUnsafeBytes(PropertyListBinaryReader.index)
  package static func index(in bytes: UnsafeRawBufferPointer) -> PropertyListBinaryIndex? {
    var index: PropertyListBinaryIndex?
    let isRead = forEachRootEntry(in: bytes) { keys, count in
      // Every key an ASCII string object, checked by its marker before the file is copied
      // or any value read: a file with one UTF-16 key is left to `storedObjects(in:)` at
      // the cost of this scan (a look at one byte a key), not of a whole read. A marker
      // that says ASCII over bytes that are not is caught by `asciiString(at:)` below.
      for number in 0..<count where !keys.isASCIIStringObject(keyAt: number) { return false }
      index = PropertyListBinaryIndex(of: bytes, capacity: count)
      return index != nil
    } visit: { document, keyNumber, value in
      guard let key = document.asciiString(at: keyNumber) else { return false }
      return index?.insert(keyAt: key.start, count: key.count, object: consume value) ?? false
    }
    guard isRead else { return nil }
    index?.dropValueBytes()
    return index
  }

  /// Reads the root dictionary's entries in order, handing `visit` each key's object
  /// number and its value as the store holds it, after `reserve` is told how many there
  /// are (and given the root's keys, to decline the document by returning `false`);
  /// `false` at the first value this reader is not sure of or entry `visit` refuses.
  @inline(__always)  // into each caller, whose `visit` is then inlined: no closure call,
  // and no copy of each value through its value witnesses (about 120 instructions a key)
  private static func forEachRootEntry(
    in bytes: UnsafeRawBufferPointer, reserving reserve: (RootKeys, Int) -> Bool,
    visit: (borrowing Document, Int, consuming StoredObject) -> Bool
  ) -> Bool {
    guard let document = Document(bytes), let root = document.offset(of: document.root),
      bytes[root] & 0xF0 == 0xD0, let entries = document.container(at: root, pairs: true)
    else { return false }
    var budget = document.count.multipliedReportingOverflow(by: 8).partialValue
    guard reserve(RootKeys(document: document, entries: entries), entries.count) else {
      return false
    }
    for index in 0..<entries.count {
      guard
        let value = document.storedObject(
          at: document.reference(entries.count + index, of: entries), depth: 1, budget: &budget),
        visit(document, document.reference(index, of: entries), consume value)
      else { return false }
    }
    return true
  }

  /// The root dictionary's keys, for a look at them before its values are read.
  private struct RootKeys {
    let document: Document
    let entries: (count: Int, start: Int)

    /// Whether key `index` is an object whose marker says ASCII string.
    func isASCIIStringObject(keyAt index: Int) -> Bool {
      guard let offset = document.offset(of: document.reference(index, of: entries)) else {
        return false
      }
      return document.bytes[offset] & 0xF0 == 0x50
    }
  }

  /// The parts of a document its trailer names, checked against its size.
  /// Whether any object of the binary property list in `bytes` is a set. No preferences
  /// file holds one (a set is no property-list type in XML, and no writer of preferences
  /// makes one), and Foundation's reader traps on a set whose members cannot be hashed (a
  /// flipped bit in a file's array marker made one): such a file is damage, and must not
  /// be handed to it. `false` when `bytes` is no readable binary property list.
  package static func holdsSet(in bytes: UnsafeRawBufferPointer) -> Bool {
    guard let document = Document(bytes) else { return false }
    for number in 0..<document.count {
      if let offset = document.offset(of: number), bytes[offset] & 0xF0 == 0xC0 { return true }
    }
    return false
  }

  private struct Document {
    let bytes: UnsafeRawBufferPointer
    let offsetWidth: Int
    let referenceWidth: Int
    let count: Int
    let root: Int
    let table: Int

    init?(_ bytes: UnsafeRawBufferPointer) {
      guard bytes.count >= 8 + 32, bytes.starts(with: "bplist00".utf8) else { return nil }
      self.bytes = bytes
      let trailer = bytes.count - 32
      offsetWidth = Int(bytes[trailer + 6])
      referenceWidth = Int(bytes[trailer + 7])
      guard (1...8).contains(offsetWidth), (1...8).contains(referenceWidth),
        let count = Self.unsigned(bytes, at: trailer + 8, width: 8),
        let root = Self.unsigned(bytes, at: trailer + 16, width: 8),
        let table = Self.unsigned(bytes, at: trailer + 24, width: 8),
        count > 0, count <= trailer, root < count, table >= 8, table <= trailer,
        count <= (trailer - table) / offsetWidth
      else { return nil }
      (self.count, self.root, self.table) = (count, root, table)
    }

    /// A big-endian unsigned number of `width` bytes at `offset`, if it is in bounds and
    /// fits an `Int`.
    static func unsigned(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int) -> Int? {
      bigEndian(bytes, at: offset, width: width, before: bytes.count).flatMap(Int.init(exactly:))
    }

    /// Eight big-endian bytes at `offset`, if they end by `end`.
    static func unsigned64(_ bytes: UnsafeRawBufferPointer, at offset: Int, before end: Int)
      -> UInt64?
    {
      bigEndian(bytes, at: offset, width: 8, before: end)
    }

    /// The one checked read of a big-endian number: `width` (at most 8) bytes at
    /// `offset`, if they end by `end` (at most the buffer's end).
    private static func bigEndian(
      _ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int, before end: Int
    ) -> UInt64? {
      guard offset >= 0, width >= 0, width <= 8, end <= bytes.count, offset <= end - width
      else { return nil }
      return load(bytes, at: offset, width: width)
    }

    /// `width` (0 to 8) big-endian bytes at `offset`, which the caller has checked are in
    /// the buffer: the reads of the offset table and of references, made once per object,
    /// take one load for the widths writers use rather than a loop and its checks.
    @inline(__always)
    private static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int)
      -> UInt64
    {
      switch width {
      case 1: return UInt64(bytes[offset])
      case 2:
        return UInt64(
          UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
      case 4:
        return UInt64(
          UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      case 8: return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      default:
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
      }
    }

    /// Where object `number` starts: after the header, before the offset table.
    func offset(of number: Int) -> Int? {
      // In bounds for every number below `count`: the trailer's check in `init`.
      guard number >= 0, number < count else { return nil }
      let offset = Self.load(bytes, at: table + number * offsetWidth, width: offsetWidth)
      guard offset >= 8, offset < UInt64(table) else { return nil }
      return Int(offset)
    }

    /// The count in an object's marker, or in the integer after it; and where the
    /// object's content starts (at most the offset table's start).
    func sized(at offset: Int) -> (count: Int, start: Int)? {
      let low = Int(bytes[offset] & 0x0F)
      guard low == 0x0F else { return (low, offset + 1) }
      guard offset + 1 < table, bytes[offset + 1] & 0xF0 == 0x10 else { return nil }
      let width = 1 << Int(bytes[offset + 1] & 0x0F)
      guard width <= 8, width <= table - (offset + 2) else { return nil }
      let count = Self.load(bytes, at: offset + 2, width: width)
      guard count <= UInt64(Int.max) else { return nil }
      return (Int(count), offset + 2 + width)
    }

    /// An array's or a dictionary's references, where they start and how many there are of
    /// each kind (a dictionary has as many values as keys after its keys); `nil` unless
    /// every one of them lies before the offset table.
    func container(at offset: Int, pairs: Bool) -> (count: Int, start: Int)? {
      guard let (count, start) = sized(at: offset), count <= Int.max / 2,
        (pairs ? count * 2 : count) <= (table - start) / referenceWidth
      else { return nil }
      return (count, start)
    }

    /// Reference `index` of a container that ``container(at:pairs:)`` has checked.
    @inline(__always)
    func reference(_ index: Int, of container: (count: Int, start: Int)) -> Int {
      let reference = Self.load(
        bytes, at: container.start + index * referenceWidth, width: referenceWidth)
      // Out of range refers to no object: `offset(of:)` declines a negative number.
      return Int(truncatingIfNeeded: min(reference, UInt64(Int.max)))
    }

    /// Where the bytes of object `number` lie when it is an ASCII string object (every
    /// byte below 0x80, inside the document): the one check of an ASCII string, for
    /// ``string(at:)`` and for keys indexed without a `String`.
    func asciiString(at number: Int) -> (start: Int, count: Int)? {
      guard let offset = offset(of: number), bytes[offset] & 0xF0 == 0x50,
        let (count, start) = sized(at: offset), count <= table - start
      else { return nil }
      let isASCII = PropertyListBinaryIndex.isASCII(
        UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
      return isASCII ? (start, count) : nil
    }

    func string(at number: Int) -> String? {
      guard let offset = offset(of: number), let (count, start) = sized(at: offset) else {
        return nil
      }
      switch bytes[offset] & 0xF0 {
      case 0x50:
        return asciiString(at: number).map {
          String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[$0.start..<($0.start + $0.count)]),
            as: UTF8.self)
        }
      case 0x60:
        guard count <= (table - start) / 2 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for index in 0..<count {
          units.append(
            UInt16(
              bigEndian: bytes.loadUnaligned(fromByteOffset: start + 2 * index, as: UInt16.self)))
        }
        // Lone surrogates are not a string Swift holds as it is: Foundation decides.
        var decoder = UTF16()
        var iterator = units.makeIterator()
        while true {
          switch decoder.decode(&iterator) {
          case .scalarValue: continue
          case .emptyInput: return String(decoding: units, as: UTF16.self)
          case .error: return nil
          }
        }
      default:
        return nil
      }
    }

    /// Object `number` as the store holds it: the four native scalars in their cases
    /// (so that no `Any` is made and cast for them), anything else as ``object(at:depth:budget:)``
    /// gives it.
    func storedObject(at number: Int, depth: Int, budget: inout Int) -> StoredObject? {
      budget -= 1
      guard budget >= 0, let offset = offset(of: number) else { return nil }
      let marker = bytes[offset]
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      case 0x10...0x1F: return integer(marker: marker, at: offset + 1)
      case 0x20...0x2F: return real(marker: marker, at: offset).map { .double($0) }
      case 0x50...0x6F: return string(at: number).map { .string($0) }
      default:
        return contents(at: offset, marker: marker, number: number, depth: depth, budget: &budget)
          .map { .other($0) }
      }
    }

    /// Object `number` as a Swift value, or `nil` when this reader is not sure of it.
    func object(at number: Int, depth: Int, budget: inout Int) -> Any? {
      budget -= 1
      guard budget >= 0, let offset = offset(of: number) else { return nil }
      return contents(
        at: offset, marker: bytes[offset], number: number, depth: depth, budget: &budget)
    }

    /// The object at `offset`, whose read ``object(at:depth:budget:)`` has counted.
    private func contents(
      at offset: Int, marker: UInt8, number: Int, depth: Int, budget: inout Int
    ) -> Any? {
      guard depth <= PropertyListBinaryReader.maximumDepth else { return nil }
      switch marker & 0xF0 {
      case 0x00:
        switch marker {
        case 0x08: return false
        case 0x09: return true
        case 0x00: return PropertyListOpaque(value: .null)
        default: return nil  // a fill byte, or an unknown marker: Foundation decides
        }
      case 0x10:
        return integer(marker: marker, at: offset + 1)?.object
      case 0x20:
        return real(marker: marker, at: offset)
      case 0x30:
        guard marker == 0x33, let bits = Self.unsigned64(bytes, at: offset + 1, before: table)
        else { return nil }
        return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
      case 0x40:
        guard let (count, start) = sized(at: offset), count <= table - start else { return nil }
        return Data(bytes[start..<(start + count)])
      case 0x50, 0x60:
        return string(at: number)
      case 0xA0:
        guard let elements = container(at: offset, pairs: false) else { return nil }
        var array: [Any] = []
        array.reserveCapacity(elements.count)
        for index in 0..<elements.count {
          guard
            let element = object(
              at: reference(index, of: elements), depth: depth + 1, budget: &budget)
          else { return nil }
          array.append(element)
        }
        return array
      case 0xD0:
        guard let entries = container(at: offset, pairs: true) else { return nil }
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(entries.count)
        for index in 0..<entries.count {
          guard let key = string(at: reference(index, of: entries)),
            let value = object(
              at: reference(entries.count + index, of: entries), depth: depth + 1,
              budget: &budget),
            dictionary.updateValue(value, forKey: key) == nil
          else { return nil }
        }
        return dictionary
      case 0x80:
        // A UID: its marker counts its bytes less one.
        let width = Int(marker & 0x0F) + 1
        guard width <= 8, offset + 1 + width <= table,
          let number = Self.unsigned(bytes, at: offset + 1, width: width)
        else { return nil }
        return PropertyListOpaque(value: .uid(UInt64(number)))
      default:
        return nil  // a set, a UTF-8 string object: Foundation decides
      }
    }

    /// A real's value: 8 bytes, or 4 (Apple's writer makes them for a `Float`), which read
    /// as the Double they are exactly; written back, they take 8 bytes and the same value.
    func real(marker: UInt8, at offset: Int) -> Double? {
      if marker == 0x22, offset + 5 <= table,
        let bits = Self.unsigned(bytes, at: offset + 1, width: 4)
      {
        return Double(Float(bitPattern: UInt32(bits)))
      }
      guard marker == 0x23, let bits = Self.unsigned64(bytes, at: offset + 1, before: table)
      else { return nil }
      return Double(bitPattern: bits)
    }

    /// An integer object's value: an `Int` when it fits, a `UInt64` for a 16-byte one whose
    /// high half is zero (what Apple's writer writes above `Int64.max`).
    func integer(marker: UInt8, at start: Int) -> StoredObject? {
      let width = 1 << Int(marker & 0x0F)
      switch width {
      case 1, 2, 4:
        guard start + width <= table else { return nil }
        return .int(Int(Self.load(bytes, at: start, width: width)))
      case 8:
        return Self.unsigned64(bytes, at: start, before: table).map {
          .int(Int(Int64(bitPattern: $0)))
        }
      case 16:
        guard let high = Self.unsigned64(bytes, at: start, before: table), high == 0,
          let low = Self.unsigned64(bytes, at: start + 8, before: table)
        else { return nil }
        return low <= UInt64(Int64.max) ? .int(Int(low)) : .other(low)
      default:
        return nil
      }
    }
  }
}
