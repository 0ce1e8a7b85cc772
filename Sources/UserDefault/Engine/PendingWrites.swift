/// The writes a backend made and has not saved yet: the one record of pending writes, for
/// a store (which keeps only names: its values hold the objects) and for the saver of a
/// Foundation suite (which keeps the objects written too).
///
/// Each write is numbered, and a save clears a name only when no newer write of it came in
/// while it wrote (``clear(saved:)``). The latest write is kept beside the table rather than
/// in it, so writes that repeat one key (a slider, a counter) cost a comparison of names
/// instead of a hash and a table update each; when another key is written it joins the
/// table, which may still hold an older write of its own key: ``snapshot`` takes the newer.
struct PendingWrites<Payload> {
  /// One name's latest unsaved write.
  struct Write {
    var payload: Payload
    /// The write's number: later writes have greater numbers.
    var number: UInt64
  }

  private var table: [String: Write] = [:]
  private var latest: (name: String, write: Write)?
  private var count: UInt64 = 0

  /// Whether nothing waits to be saved.
  var isEmpty: Bool { latest == nil && table.isEmpty }

  /// Whether `name` waits to be saved.
  func contains(_ name: String) -> Bool { latest?.name == name || table[name] != nil }

  /// Records a write of `name`. Cost: a comparison of names when it is the key written
  /// last; else a table update.
  mutating func record(_ name: String, _ payload: Payload) {
    count += 1
    let write = Write(payload: payload, number: count)
    if latest?.name == name {
      latest!.write = write
      return
    }
    if let previous = latest { table[previous.name] = previous.write }
    latest = (name, write)
  }

  /// The unsaved writes, the latest of each name, for a save to take.
  var snapshot: [String: Write] {
    guard let latest else { return table }
    var snapshot = table
    snapshot[latest.name] = latest.write
    return snapshot
  }

  /// Clears the writes a save took (its ``snapshot``) and saved, but not a name written
  /// again since: that newer write stays pending.
  mutating func clear(saved: [String: Write]) {
    for (name, write) in saved {
      if let kept = table[name], kept.number <= write.number { table[name] = nil }
      if let last = latest, last.name == name, last.write.number <= write.number { latest = nil }
    }
  }
}

extension PendingWrites: Sendable where Payload: Sendable {}
extension PendingWrites.Write: Sendable where Payload: Sendable {}
