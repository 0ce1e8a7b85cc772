import Foundation

/// The root dictionary of a property list as read: each key's bytes, its value, and a hash
/// table from the one to the other.
///
/// Why: most of a cold open is making each key's `String` and inserting it. A store that
/// reads a few keys (an app's launch) needs neither: this table hashes the name's UTF-8
/// bytes, and ``StoredValues`` makes the dictionary only for more than a lookup.
///
/// ASCII keys only, which are equal exactly when their bytes are. A name that is not
/// ASCII may still equal one canonically (U+212A KELVIN SIGN is "K"): ``Lookup/unknown``.
///
/// A struct: a class's `var` arrays are checked for exclusive access on every lookup.
///
/// Cost in memory: a copy of the file (or of its keys' bytes), eight bytes and a stored
/// object a key, and four bytes a slot (at most half full, a quarter after a projection);
/// dropped with the dictionary.
package struct PropertyListIndex {
  /// The file's bytes, or only its keys' when they are a small part of it.
  private let bytes: [UInt8]
  private let keys: [KeyPlace]
  private let objects: [StoredObject]
  /// Open addressing, linear probing: a key's number plus one, 0 for an empty slot. At
  /// most half full.
  private let slots: [UInt32]
  private let mask: Int
  /// A lookup that has probed this far has looked everywhere.
  private let probeBound: Int
  private let serial: UInt64

  private static let serials = Lock<UInt64>(0)

  package enum Lookup {
    case found(StoredObject)
    case absent
    /// The name is not ASCII: only the dictionary can answer.
    case unknown
  }

  fileprivate struct KeyPlace {
    let start: UInt32
    let count: UInt32
  }

  private init(_ builder: consuming Builder, bytes: [UInt8]) {
    self.bytes = bytes
    keys = builder.keys
    objects = builder.objects
    slots = builder.slots
    mask = builder.mask
    probeBound = builder.probeBound
    serial = Self.serials.withLock { serial in
      serial += 1
      return serial
    }
  }

  /// Whether `other` is this index (or a copy of it), not another read of a file.
  package func isSame(as other: PropertyListIndex) -> Bool { serial == other.serial }

  package var count: Int { objects.count }

  var heldBytes: Int { bytes.count }

  var slotCount: Int { slots.count }

  /// The hash is not keyed: past this probe, a file crafted to collide (quadratic to
  /// build) is declined, for a dictionary with a seeded `Hasher`.
  static let longestProbe = 128

  /// The value stored under `name`, its absence, or that the table cannot say.
  ///
  /// Cost: two passes over the name's bytes, eight at a time (ASCII check, hash), then a
  /// probe that compares bytes; no allocation.
  package func lookup(_ name: String) -> Lookup {
    var name = name
    return name.withUTF8 { bytes in
      let name = UnsafeRawBufferPointer(bytes)
      guard Self.isASCII(name) else { return .unknown }
      return self.bytes.withUnsafeBytes { all in
        var slot = Self.hash(name) & mask
        var stepsLeft = probeBound
        while slots[slot] != 0 {
          let number = Int(slots[slot] - 1)
          if Self.key(keys[number], in: all, equals: name) { return .found(objects[number]) }
          guard stepsLeft > 0 else { break }
          stepsLeft -= 1
          slot = (slot + 1) & mask
        }
        return .absent
      }
    }
  }

  /// The dictionary the table stands for: what the reader would have made.
  ///
  /// Cost: a `String` and an insertion a key, about what the reader's dictionary costs; the
  /// index's own work is not repeated.
  package func dictionary() -> [String: StoredObject] {
    bytes.withUnsafeBytes {
      Self.dictionary(keys: keys, objects: objects, in: $0, minimumCapacity: objects.count)
    }
  }

  private static func dictionary(
    keys: [KeyPlace], objects: [StoredObject], in all: UnsafeRawBufferPointer,
    minimumCapacity: Int
  ) -> [String: StoredObject] {
    var values = [String: StoredObject](minimumCapacity: max(minimumCapacity, objects.count))
    for number in objects.indices {
      let key = bytes(of: keys[number], in: all)
      // ASCII, so valid: made in place, cheaper than `String(decoding:as:)`.
      let name = String(unsafeUninitializedCapacity: key.count) { buffer in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: key)
        return key.count
      }
      values[name] = objects[number]
    }
    return values
  }

  private static func bytes(of place: KeyPlace, in all: UnsafeRawBufferPointer)
    -> UnsafeRawBufferPointer
  {
    let start = Int(place.start)
    return UnsafeRawBufferPointer(rebasing: all[start..<(start + Int(place.count))])
  }

  private static func key(
    _ place: KeyPlace, in all: UnsafeRawBufferPointer, equals name: UnsafeRawBufferPointer
  ) -> Bool {
    guard Int(place.count) == name.count else { return false }
    return name.isEmpty
      || memcmp(all.baseAddress! + Int(place.start), name.baseAddress!, name.count) == 0
  }

  static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var union: UInt64 = 0
    Self.forEachWord(of: bytes) { union |= $0 }
    return union & 0x8080_8080_8080_8080 == 0
  }

  /// Hands `body` the bytes as words: whole eight bytes, then the rest as one word
  /// (overlapping). A word or two for short keys, far cheaper than a byte loop.
  @inline(__always)
  private static func forEachWord(of bytes: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) {
    let count = bytes.count
    var offset = 0
    while offset + 8 <= count {
      body(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    guard offset < count else { return }
    if count >= 8 {
      body(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    } else if count >= 4 {
      let low = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
      let high = bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
      body(UInt64(low) | UInt64(high) << 32)
    } else {
      var word: UInt64 = 0
      for index in 0..<count { word |= UInt64(bytes[index]) << (8 * UInt64(index)) }
      body(word)
    }
  }

  // A finaliser spreads every byte into the low bits the mask keeps. Not keyed: see
  // ``longestProbe``.
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash = UInt64(truncatingIfNeeded: bytes.count) &* multiplier
    forEachWord(of: bytes) { word in
      hash = (hash ^ word) &* multiplier
      hash ^= hash >> 29
    }
    hash = hash &* 0xD6E8_FEB8_6659_FD93
    hash ^= hash >> 32
    return Int(truncatingIfNeeded: hash)
  }

  /// Makes an index while a reader walks a document: its keys stay in the reader's bytes
  /// until ``index()`` copies what the index keeps, once.
  struct Builder {
    /// Valid while the reader reads, which is as long as the builder lives.
    private let document: UnsafeRawBufferPointer
    fileprivate var keys: [KeyPlace] = []
    fileprivate var objects: [StoredObject] = []
    fileprivate var slots: [UInt32]
    fileprivate var mask: Int
    fileprivate var probeBound = 0

    /// A builder for about `expectedCount` keys (the table grows past an estimate); `nil`
    /// beyond what four-byte offsets number.
    init?(over document: UnsafeRawBufferPointer, expectedCount: Int) {
      // Compared as 64-bit: `Int(UInt32.max)` traps where `Int` is 32 bits (watchOS).
      guard UInt64(document.count) < UInt64(UInt32.max), expectedCount < Self.mostKeys else {
        return nil
      }
      self.document = document
      var size = 8
      while size < expectedCount * 2 { size <<= 1 }
      slots = [UInt32](repeating: 0, count: size)
      mask = size - 1
      objects.reserveCapacity(expectedCount)
      keys.reserveCapacity(expectedCount)
    }

    /// Past it, four-byte slots could not number the keys (as 32-bit `Int` would hold).
    private static let mostKeys = Int(Int32.max) / 4

    /// Whether the table is as full as it may be: the next key makes it double, unless
    /// ``reserve(_:)`` makes room first.
    var isFull: Bool { (objects.count + 1) * 2 > slots.count }

    var count: Int { objects.count }

    /// Makes room for about `count` keys in all, at once; `false` as
    /// ``insert(keyAt:count:object:)``. The table is made at most a quarter full: a
    /// projected count may fall short, and a table near half full probes further. Room in
    /// the arrays that a projection overshot is allocated, not written: its pages are
    /// never made resident.
    mutating func reserve(_ count: Int) -> Bool {
      guard count < Self.mostKeys else { return false }
      objects.reserveCapacity(count)
      keys.reserveCapacity(count)
      var size = slots.count
      while size < count * 4 { size <<= 1 }
      return size == slots.count || grow(to: size)
    }

    /// Adds the key at `start` in the document, `count` bytes, and its value; `false`,
    /// after which the builder is not to be used, for a repeated key or one past
    /// ``longestProbe``.
    mutating func insert(keyAt start: Int, count: Int, object: consuming StoredObject) -> Bool {
      guard objects.count < Self.mostKeys, !isFull || grow(to: slots.count * 2) else {
        return false
      }
      let place = KeyPlace(start: UInt32(start), count: UInt32(count))
      guard let found = freeSlot(for: place, checkingRepeats: true) else { return false }
      slots[found.slot] = UInt32(objects.count + 1)
      probeBound = max(probeBound, found.distance)
      keys.append(place)
      objects.append(object)
      return true
    }

    /// The keys inserted so far and their values as a dictionary, room made for
    /// `minimumCapacity`; for a reader that goes on without the index. Valid after a
    /// `false` insert too: a refused key was not added.
    func dictionary(minimumCapacity: Int) -> [String: StoredObject] {
      PropertyListIndex.dictionary(
        keys: keys, objects: objects, in: document, minimumCapacity: minimumCapacity)
    }

    /// The index, holding a copy of the document, or only of its keys' bytes when they
    /// are a small part of it, so large values are not held twice.
    consuming func index() -> PropertyListIndex {
      let keyBytes = keys.reduce(0) { $0 + Int($1.count) }
      guard keyBytes == 0 || document.count > 4 * keyBytes + 65_536 else {
        return PropertyListIndex(self, bytes: Array(document))
      }
      var compact: [UInt8] = []
      compact.reserveCapacity(keyBytes)
      for number in keys.indices {
        compact.append(contentsOf: PropertyListIndex.bytes(of: keys[number], in: document))
        keys[number] = KeyPlace(
          start: UInt32(compact.count) - keys[number].count, count: keys[number].count)
      }
      return PropertyListIndex(self, bytes: compact)
    }

    /// Makes the table `size` slots, so it stays at most half full; `false` when a key
    /// lands past ``longestProbe``.
    private mutating func grow(to size: Int) -> Bool {
      slots = [UInt32](repeating: 0, count: size)
      mask = size - 1
      probeBound = 0
      for number in keys.indices {
        guard let found = freeSlot(for: keys[number], checkingRepeats: false) else {
          return false
        }
        slots[found.slot] = UInt32(number + 1)
        probeBound = max(probeBound, found.distance)
      }
      return true
    }

    /// The empty slot for the key at `place` and how far past its first slot it is; `nil`
    /// when the key is there already (looked for only when `checkingRepeats`: the keys a
    /// table grows with differ) or the slot is past ``longestProbe``.
    @inline(__always)
    private func freeSlot(for place: KeyPlace, checkingRepeats: Bool)
      -> (slot: Int, distance: Int)?
    {
      let key = PropertyListIndex.bytes(of: place, in: document)
      var slot = PropertyListIndex.hash(key) & mask
      var distance = 0
      while slots[slot] != 0 {
        if checkingRepeats,
          PropertyListIndex.key(keys[Int(slots[slot] - 1)], in: document, equals: key)
        {
          return nil
        }
        distance += 1
        guard distance <= PropertyListIndex.longestProbe else { return nil }
        slot = (slot + 1) & mask
      }
      return (slot, distance)
    }
  }
}
