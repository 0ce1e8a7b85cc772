import Foundation
import PropertyListCodec

/// The domains a read looks in around a suite's own values, in Foundation's order: a launch
/// argument first, then the suite's own value, then the read-only lower domains
/// (system-wide files, the global domain), then the registered defaults.
///
/// The one rule for what a read gives and what observers of a change are told, on every
/// backend: a change under a launch argument is not seen, and a value that appears or goes
/// is compared with what lies below it. The library's store holds its domains here; a
/// Foundation instance, whose domains Foundation holds, asks ``seenChange(of:isArgument:from:to:below:)``.
struct SearchList {
  /// Launch arguments (`-name value`); empty for an in-memory store, whose reads must not
  /// depend on how the process was started. Fixed for the list's life, so what
  /// ``isArgument(_:number:)`` learnt of a key number stays true.
  let arguments: [String: StoredObject]
  /// Whether each ``KeyIdentity/number``'s name has an argument, learnt at its first use:
  /// once any argument is given, hashing every read's name again, to find none, cost as
  /// much as the read's own lookup.
  private var argumentPresence: [ArgumentPresence] = []
  /// The read-only domains below the suite's file, merged.
  var lower: [String: StoredObject] = [:] {
    didSet { version &+= 1 }
  }
  var registered: [String: StoredObject] = [:] {
    didSet { version &+= 1 }
  }
  /// Changes at every assignment or mutation of ``lower`` or ``registered``, and at no
  /// other: what a read found below a suite's own values holds while it is the same.
  private(set) var version: UInt64 = 0

  init(arguments: [String: StoredObject]) {
    self.arguments = arguments
  }

  private enum ArgumentPresence: UInt8 {
    case unknown, absent, present
  }

  /// Whether `name` is given as a launch argument, as ``isArgument(_:)``, asked by number.
  ///
  /// - Parameters:
  ///   - name: The stored name.
  ///   - number: `name`'s ``KeyIdentity/number``; `nil` to look the name up.
  /// - Returns: Whether an argument for `name` hides its stored values. Cost: nothing
  ///   without arguments; else an index into a table, and a lookup of the name at the
  ///   number's first use or without a number.
  mutating func isArgument(_ name: String, number: Int?) -> Bool {
    guard let number else { return isArgument(name) }
    guard !arguments.isEmpty else { return false }
    if number < argumentPresence.count, argumentPresence[number] != .unknown {
      return argumentPresence[number] == .present
    }
    return learnArgument(of: name, number: number)
  }

  private mutating func learnArgument(of name: String, number: Int) -> Bool {
    if number >= argumentPresence.count {
      argumentPresence.append(
        contentsOf: repeatElement(.unknown, count: number + 1 - argumentPresence.count))
    }
    let isPresent = arguments[name] != nil
    argumentPresence[number] = isPresent ? .present : .absent
    return isPresent
  }

  /// Whether `name` is given as a launch argument, which every read returns instead.
  func isArgument(_ name: String) -> Bool {
    !arguments.isEmpty && arguments[name] != nil
  }

  /// What a read of `name` finds when the suite holds no value of its own.
  func below(_ name: String) -> StoredObject? {
    if !lower.isEmpty, let found = lower[name] { return found }
    return registered[name]
  }

  /// Every domain merged over `own`, each winning over those below it, as
  /// `dictionaryRepresentation()` gives them.
  func merged(over own: [String: StoredObject]) -> [String: StoredObject] {
    registered.merging(lower) { _, lower in lower }
      .merging(own) { _, stored in stored }
      .merging(arguments) { _, argument in argument }
  }

  /// `changes` of the suite's own values as readers see them.
  func seen(_ changes: [ChangeHub.Change]) -> [ChangeHub.Change] {
    if arguments.isEmpty && lower.isEmpty && registered.isEmpty { return changes }
    return changes.compactMap { change in
      var seen = Self.seenChange(
        of: change.name, isArgument: isArgument(change.name), from: change.oldObject,
        to: change.newObject, below: below(change.name)?.object)
      seen?.trackingPath = change.trackingPath
      return seen
    }
  }

  /// Replaces the lower domains and returns the changes readers see: of names the suite
  /// holds no value of its own for (`hasOwnValue`) and no argument hides.
  mutating func replaceLower(
    with found: [String: StoredObject], hasOwnValue: (String) -> Bool
  ) -> [ChangeHub.Change] {
    let names = Set(lower.keys).union(found.keys).filter {
      !hasOwnValue($0) && !isArgument($0)
    }
    let before = names.map { below($0) }
    lower = found
    return zip(names, before).compactMap { name, old in
      ChangeHub.Change(name: name, from: old, to: below(name))
    }
  }

  /// The change readers see when the suite's own value of `name` goes from `old` to
  /// `new` (`nil`: none): nothing under a launch argument; a missing value reads as what
  /// lies `below`, evaluated only when needed. `nil` when readers see no change.
  static func seenChange(
    of name: String, isArgument: Bool, from old: Any?, to new: Any?,
    below: @autoclosure () -> Any?
  ) -> ChangeHub.Change? {
    guard !isArgument else { return nil }
    guard old == nil || new == nil else { return ChangeHub.Change(name: name, from: old, to: new) }
    let lower = below()
    return ChangeHub.Change(name: name, from: old ?? lower, to: new ?? lower)
  }
}
