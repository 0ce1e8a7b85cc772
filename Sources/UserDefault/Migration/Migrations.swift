import Foundation

/// An ordered list of migrations for a suite, each run once.
///
/// ```swift
/// let migrations = Migrations {
///   Migration(1, .rename("userName", to: "profile.name"))
///   Migration(2, .decodeJSONString("is_discount_provided", as: Bool.self))
///   Migration(3, .drop(["legacyFlag"]))
/// }
/// try migrations.run(on: store)
/// ```
///
/// The last version applied is recorded under ``versionKey``. On a ``PreferencesStore``
/// ``run(on:)`` holds the file lock and writes each step with its version atomically, so
/// another process waits and a killed run is finished by the next; elsewhere it is
/// exclusive in this process only.
public struct Migrations {
  /// The key under which a suite records its schema version (an `Int`).
  public static let versionKey = "UserDefault.schemaVersion"

  let migrations: [Migration]

  /// Migrations given as a list; versions must be positive and increase.
  ///
  /// - Parameters:
  ///   - migrations: The migrations, in the order they run.
  ///
  /// `let migrations = Migrations([Migration(1, .drop(["legacyFlag"]))])`
  public init(_ migrations: [Migration]) {
    self.migrations = migrations
  }

  /// Migrations given one per line.
  ///
  /// - Parameters:
  ///   - build: A closure listing one ``Migration`` per line, in the order they run.
  ///
  /// `let migrations = Migrations { Migration(1, .drop(["legacyFlag"])) }`
  public init(@MigrationListBuilder _ build: () -> [Migration]) {
    self.init(build())
  }

  /// The version `defaults` has reached. Cost: one read of ``versionKey``.
  ///
  /// - Parameters:
  ///   - defaults: The suite to ask.
  /// - Returns: The version of the last migration run on it; 0 when no migration ever ran.
  ///
  /// `let version = Migrations.version(of: .standard)`
  public static func version(of defaults: UserDefaults) -> Int {
    defaults.value(versionDescriptor)
  }

  /// Runs the migrations `defaults` has not run yet, in order.
  ///
  /// - Parameters:
  ///   - defaults: The suite to migrate.
  /// - Returns: The versions run, in order; empty when the suite was up to date.
  /// - Throws: ``DefaultsError`` when the versions do not increase, when a step throws (the
  ///   steps before it stay applied and recorded), or when a store cannot write its file.
  ///
  /// `try migrations.run(on: .standard)`
  @discardableResult
  public func run(on defaults: UserDefaults) throws(DefaultsError) -> [Int] {
    var previous = 0
    for migration in migrations {
      guard migration.version > previous else {
        throw DefaultsError(
          .refusedValue,
          "migration versions must be positive and increasing; \(migration.version) follows \(previous)"
        )
      }
      previous = migration.version
    }
    return try ExclusiveRun.run(on: defaults.access.backend) { commit throws(DefaultsError) in
      try apply(to: defaults, afterEachStep: commit)
    }
  }

  private func apply(
    to defaults: UserDefaults, afterEachStep commit: () throws(DefaultsError) -> Void
  ) throws(DefaultsError) -> [Int] {
    let current = Self.version(of: defaults)
    var applied: [Int] = []
    for migration in migrations where migration.version > current {
      do throws(DefaultsError) {
        try migration.step.apply(defaults)
      } catch {
        throw DefaultsError(
          error.kind,
          "migration \(migration.version) (\(migration.step.summary)) failed: \(error.message)")
      }
      defaults.write(migration.version, for: Self.versionDescriptor)
      try commit()
      applied.append(migration.version)
    }
    return applied
  }

  private static let versionDescriptor = KeyDescriptor<Int>(
    name: versionKey, bridge: .shared, defaultValue: .constant(0))
}

/// Builds the list of ``Migrations`` from one ``Migration`` per line.
@resultBuilder
public enum MigrationListBuilder {
  /// The migrations, in the order written.
  ///
  /// - Parameters:
  ///   - migrations: One migration per line of the builder.
  /// - Returns: The migrations as an array.
  ///
  /// `let list = MigrationListBuilder.buildBlock(Migration(1, .drop(["legacyFlag"])))`
  public static func buildBlock(_ migrations: Migration...) -> [Migration] { migrations }
}
