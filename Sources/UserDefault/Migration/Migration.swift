import Foundation

/// One numbered change to how a suite stores its values; see ``Migrations``.
public struct Migration {
  /// The schema version the suite has once this migration ran; versions increase.
  public let version: Int
  /// What the migration does.
  public let step: MigrationStep

  /// A migration to `version`, doing `step`.
  public init(_ version: Int, _ step: MigrationStep) {
    self.version = version
    self.step = step
  }
}

/// What one migration does to a suite. Every step reads and writes through the library's
/// value bridge, so converted values are stored the way the library's keys read them.
///
/// A step runs with no other process migrating the same store (see ``Migrations``), and
/// is written to disk together with its version number, so it must only depend on the
/// values it finds: run twice on the same values, it must give the same result.
public struct MigrationStep {
  /// A short description, for errors and logs.
  public let summary: String
  let apply: (UserDefaults) throws(DefaultsError) -> Void

  /// A step that runs `body` on the suite; for changes the other steps do not cover.
  public static func custom(
    _ summary: String, _ body: @escaping (UserDefaults) throws(DefaultsError) -> Void
  ) -> MigrationStep {
    MigrationStep(summary: summary, apply: body)
  }

  /// Moves the stored value of `old` to `new` unchanged (nothing happens when `old` holds
  /// nothing; a value already under `new` is replaced).
  public static func rename(_ old: String, to new: String) -> MigrationStep {
    custom("rename \(old) to \(new)") { defaults throws(DefaultsError) in
      guard let object = defaults.object(forKey: old) else { return }
      try defaults.access.writeObject(object, forName: new)
      defaults.access.remove(old)
    }
  }

  /// Replaces the value under `key`, read as `Old`, with `transform(old)` stored as
  /// `New`. A value that is not an `Old`, or that `transform` turns into `nil`, is left as
  /// it is and reported: a migration never drops data it cannot read.
  public static func convert<Old, New>(
    _ key: String, from _: Old.Type, to _: New.Type, _ transform: @escaping (Old) -> New?
  ) -> MigrationStep {
    custom("convert \(key) from \(Old.self) to \(New.self)") { defaults throws(DefaultsError) in
      guard let object = defaults.object(forKey: key) else { return }
      let old: Old
      do throws(DefaultsError) {
        old = try ValueBridge<Old>.shared.decode(object)
      } catch {
        DefaultsDiagnostics.report(
          .wrongType, key: key, suite: defaults.access.suite.name,
          "migration left the value as it is: \(error.message)")
        return
      }
      guard let new = transform(old) else {
        DefaultsDiagnostics.report(
          .undecodableValue, key: key, suite: defaults.access.suite.name,
          "migration could not convert \(old) to \(New.self); the value is left as it is")
        return
      }
      guard let stored = try ValueBridge<New>.shared.encode(new) else {
        defaults.access.remove(key)
        return
      }
      try defaults.access.writeObject(stored, forName: key)
    }
  }

  /// Reads a value that an older release stored as a JSON string (the first string-key
  /// `@UserDefault` design stored every value that way) and stores it the way the library
  /// stores `Value` now: `Bool` as a Boolean, a `Codable` struct as JSON, and so on.
  public static func decodeJSONString<Value: Decodable>(_ key: String, as _: Value.Type)
    -> MigrationStep
  {
    convert(key, from: String.self, to: Value.self) { json in
      try? JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }
  }

  /// Moves the values of `keys` to `destination` (another suite), removing them here.
  /// The destination is written first, so an interrupted move leaves both copies, never none.
  public static func move(_ keys: [String], to destination: UserDefaults) -> MigrationStep {
    custom("move \(keys.joined(separator: ", "))") { defaults throws(DefaultsError) in
      var moved: [String] = []
      for key in keys {
        guard let object = defaults.object(forKey: key) else { continue }
        try destination.access.writeObject(object, forName: key)
        moved.append(key)
      }
      try destination.access.backend.flush()
      for key in moved { defaults.access.remove(key) }
    }
  }

  /// Removes the values of `keys`.
  public static func drop(_ keys: [String]) -> MigrationStep {
    custom("drop \(keys.joined(separator: ", "))") { defaults throws(DefaultsError) in
      for key in keys { defaults.access.remove(key) }
    }
  }
}
