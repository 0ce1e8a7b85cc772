import Foundation

/// The root dictionary of a binary property list as read: each key's bytes, its value,
/// and a hash table from the one to the other.
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
/// object a key, and four bytes a slot at most half full; dropped with the dictionary.
package struct PropertyListBinaryIndex {
  /// The file's bytes, copied once: cheaper than copying each key.
  private var bytes: [UInt8]
  private var keys: [KeyPlace] = []
  private var objects: [StoredObject] = []
  /// Open addressing, linear probing: a key's number plus one, 0 for an empty slot.
  private var slots: [UInt32]
  private let mask: Int
  private let serial: UInt64

  private static let serials = Lock<UInt64>(0)

  package enum Lookup {
    case found(StoredObject)
    case absent
    /// The name is not ASCII: only the dictionary can answer.
    case unknown
  }

  private struct KeyPlace {
    let start: UInt32
    let count: UInt32
  }

  /// `nil` beyond what four-byte slots and offsets number.
  init?(of bytes: UnsafeRawBufferPointer, capacity count: Int) {
    guard count < Int(UInt32.max) / 2, bytes.count < Int(UInt32.max) else { return nil }
    self.bytes = Array(bytes)
    var size = 8
    while size < count * 2 { size <<= 1 }
    slots = [UInt32](repeating: 0, count: size)
    mask = size - 1
    objects.reserveCapacity(count)
    keys.reserveCapacity(count)
    serial = Self.serials.withLock { serial in
      serial += 1
      return serial
    }
  }

  /// Whether `other` is this index (or a copy of it), not another read of a file.
  package func isSame(as other: PropertyListBinaryIndex) -> Bool { serial == other.serial }

  package var count: Int { objects.count }

  var heldBytes: Int { bytes.count }

  /// The hash is not keyed: past this probe, a file crafted to collide (quadratic to
  /// build) is declined, for a dictionary with a seeded `Hasher`.
  static let longestProbe = 128

  /// A lookup that has probed this far has looked everywhere.
  private var probeBound = 0

  /// Adds a key and its value; `false`, adding nothing, for a repeated key or one past
  /// ``longestProbe``.
  mutating func insert(keyAt start: Int, count: Int, object: consuming StoredObject) -> Bool {
    let place = KeyPlace(start: UInt32(start), count: UInt32(count))
    let distance = bytes.withUnsafeBytes { all -> Int? in
      let key = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
      var slot = Self.hash(key) & mask
      var distance = 0
      while slots[slot] != 0 {
        if self.key(Int(slots[slot] - 1), in: all, equals: key) { return nil }
        distance += 1
        guard distance <= Self.longestProbe else { return nil }
        slot = (slot + 1) & mask
      }
      slots[slot] = UInt32(objects.count + 1)
      return distance
    }
    guard let distance else { return false }
    probeBound = max(probeBound, distance)
    keys.append(place)
    objects.append(consume object)
    return true
  }

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
          if key(number, in: all, equals: name) { return .found(objects[number]) }
          guard stepsLeft > 0 else { break }
          stepsLeft -= 1
          slot = (slot + 1) & mask
        }
        return .absent
      }
    }
  }

  /// Keeps only the keys' bytes when they are a small part of the file, so large values
  /// are not held twice.
  mutating func dropValueBytes() {
    let keyBytes = keys.reduce(0) { $0 + Int($1.count) }
    guard bytes.count > 4 * keyBytes + 65_536 else { return }
    var compact: [UInt8] = []
    compact.reserveCapacity(keyBytes)
    for number in keys.indices {
      let start = Int(keys[number].start)
      compact.append(contentsOf: bytes[start..<(start + Int(keys[number].count))])
      keys[number] = KeyPlace(
        start: UInt32(compact.count) - keys[number].count, count: keys[number].count)
    }
    bytes = compact
  }

  /// The dictionary the table stands for: what the reader would have made.
  package func dictionary() -> [String: StoredObject] {
    var values: [String: StoredObject] = [:]
    values.reserveCapacity(objects.count)
    bytes.withUnsafeBytes { all in
      for number in objects.indices {
        let start = Int(keys[number].start)
        let key = String(
          decoding: UnsafeRawBufferPointer(
            rebasing: all[start..<(start + Int(keys[number].count))]),
          as: UTF8.self)
        values[key] = objects[number]
      }
    }
    return values
  }

  private func key(
    _ number: Int, in all: UnsafeRawBufferPointer, equals name: UnsafeRawBufferPointer
  )
    -> Bool
  {
    let place = keys[number]
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
}
