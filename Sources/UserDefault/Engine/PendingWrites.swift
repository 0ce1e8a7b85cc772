/// The writes a backend made and has not saved yet, numbered: a save clears a name only
/// if no newer write came in while it wrote. The latest write is kept beside the table,
/// so writes repeating one key (a slider) cost a comparison of names, not a hash and an
/// update; ``snapshot`` takes the newer of it and the table's.
struct PendingWrites<Payload> {
  struct Write {
    var payload: Payload
    var number: UInt64
  }

  private var table: [String: Write] = [:]
  private var latest: (name: String, write: Write)?
  private var count: UInt64 = 0

  var isEmpty: Bool { latest == nil && table.isEmpty }

  func contains(_ name: String) -> Bool { latest?.name == name || table[name] != nil }

  /// Records a write of `name`. Cost: a comparison of names when it is the key written
  /// last; else a table update.
  mutating func record(_ name: String, _ payload: consuming Payload) {
    count += 1
    if latest?.name == name {
      latest!.write = Write(payload: payload, number: count)
      return
    }
    if let previous = latest.take() { table[previous.name] = previous.write }
    latest = (name, Write(payload: payload, number: count))
  }

  var snapshot: [String: Write] {
    guard let latest else { return table }
    var snapshot = table
    snapshot[latest.name] = latest.write
    return snapshot
  }

  /// Clears what a save took, but not a name written again since.
  mutating func clear(saved: [String: Write]) {
    for (name, write) in saved {
      if let kept = table[name], kept.number <= write.number { table[name] = nil }
      if let last = latest, last.name == name, last.write.number <= write.number { latest = nil }
    }
  }
}

extension PendingWrites: Sendable where Payload: Sendable {}
extension PendingWrites.Write: Sendable where Payload: Sendable {}
