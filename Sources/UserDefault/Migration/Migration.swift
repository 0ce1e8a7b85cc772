import Foundation

/// One numbered change to how a suite stores its values; see ``Migrations``.
public struct Migration {
  let version: Int
  let step: MigrationStep

  /// A migration to `version`, doing `step`.
  ///
  /// - Parameters:
  ///   - version: The suite's schema version after the step; positive, and increasing.
  ///   - step: What the migration does.
  ///
  /// `let migration = Migration(1, .rename("userName", to: "profile.name"))`
  public init(_ version: Int, _ step: MigrationStep) {
    self.version = version
    self.step = step
  }
}

/// What one migration does to a suite, through the library's value bridge. It must depend
/// only on the values it finds: run twice, it gives the same result.
public struct MigrationStep {
  let summary: String
  let apply: (UserDefaults) throws(DefaultsError) -> Void

  /// A step that runs `body` on the suite; for changes the other steps do not cover.
  ///
  /// - Parameters:
  ///   - summary: A short description, for errors and logs.
  ///   - body: The change to the suite given; run twice, it must give the same result.
  /// - Returns: The step.
  ///
  /// `let step = MigrationStep.custom("clear launches") { $0.removeValue(forKey: "launches") }`
  public static func custom(
    _ summary: String, _ body: @escaping (UserDefaults) throws(DefaultsError) -> Void
  ) -> MigrationStep {
    MigrationStep(summary: summary, apply: body)
  }

  /// Moves the value of `old` to `new` unchanged, replacing any there.
  ///
  /// - Parameters:
  ///   - old: The name the value is stored under now.
  ///   - new: The name to store it under.
  /// - Returns: The step; it throws ``DefaultsError`` for an invalid `new` name.
  ///
  /// `Migration(1, .rename("userName", to: "profile.name"))`
  public static func rename(_ old: String, to new: String) -> MigrationStep {
    custom("rename \(old) to \(new)") { defaults throws(DefaultsError) in
      guard let object = defaults.access.object(forName: old) else { return }
      try defaults.access.writeObject(object, forName: new)
      defaults.access.remove(old)
    }
  }

  /// Replaces the `Old` under `key` with `transform(old)` as `New`. A value that is not an
  /// `Old`, or that `transform` makes `nil`, is left and reported: a migration never drops
  /// data it cannot read. Cost: a decode and an encode.
  ///
  /// - Parameters:
  ///   - key: The name the value is stored under.
  ///   - from: The type the value is stored as now, `Old`.
  ///   - to: The type to store it as, `New`.
  ///   - transform: Turns the old value into the new one; `nil` leaves the value as it is.
  /// - Returns: The step.
  ///
  /// ```swift
  /// Migration(2, .convert("volume", from: Int.self, to: Double.self) { Double($0) / 100 })
  /// ```
  public static func convert<Old, New>(
    _ key: String, from _: Old.Type, to _: New.Type, _ transform: @escaping (Old) -> New?
  ) -> MigrationStep {
    custom("convert \(key) from \(Old.self) to \(New.self)") { defaults throws(DefaultsError) in
      guard let object = defaults.access.object(forName: key) else { return }
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

  /// Restores a value an older release stored as a JSON string as `Value` (`Bool` as a
  /// Boolean). Anything else is left and reported.
  ///
  /// - Parameters:
  ///   - key: The name the JSON string is stored under.
  ///   - as: The type the JSON decodes to, and the type to store.
  /// - Returns: The step.
  ///
  /// `Migration(2, .decodeJSONString("is_discount_provided", as: Bool.self))`
  public static func decodeJSONString<Value: Decodable>(_ key: String, as _: Value.Type)
    -> MigrationStep
  {
    convert(key, from: String.self, to: Value.self) { json in
      try? JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }
  }

  /// Moves the values of `keys` to another suite. The destination is saved first (a disk
  /// write), so an interrupted move leaves both copies, never none.
  ///
  /// - Parameters:
  ///   - keys: The names whose values to move; names with nothing stored are skipped.
  ///   - destination: The suite to move them to.
  /// - Returns: The step.
  ///
  /// `Migration(3, .move(["theme"], to: UserDefaults(suiteName: "group.app")!))`
  public static func move(_ keys: [String], to destination: UserDefaults) -> MigrationStep {
    custom("move \(keys.joined(separator: ", "))") { defaults throws(DefaultsError) in
      var moved: [String] = []
      for key in keys {
        guard let object = defaults.access.object(forName: key) else { continue }
        try destination.access.writeObject(object, forName: key)
        moved.append(key)
      }
      try destination.access.backend.flush()
      for key in moved { defaults.access.remove(key) }
    }
  }

  /// Removes the values of `keys`.
  ///
  /// - Parameters:
  ///   - keys: The names whose values to remove.
  /// - Returns: The step.
  ///
  /// `Migration(3, .drop(["legacyFlag"]))`
  public static func drop(_ keys: [String]) -> MigrationStep {
    custom("drop \(keys.joined(separator: ", "))") { defaults throws(DefaultsError) in
      for key in keys { defaults.access.remove(key) }
    }
  }
}
