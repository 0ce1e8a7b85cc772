import Foundation

extension PreferencesStore {
  /// Writes the declarations of ``KeyRegistry`` that can be used with this suite to
  /// `<suite>.keys.json` next to the preferences file (mode 0600), where the `defaults`
  /// tool reads declared types and defaults. Call once the keys are declared, e.g. at launch.
  ///
  /// Cost: one JSON encode and one atomic file write.
  ///
  /// - Throws: ``DefaultsError`` of kind ``DefaultsDiagnostic/Kind/failedSave`` for an
  ///   in-memory store, a store without a usable directory, or a file that cannot be written.
  ///
  /// `try store.publishKeyRegistry()`
  public func publishKeyRegistry() throws(DefaultsError) {
    try writeBesideFile(KeyRegistry.exportJSON(suite: access.suite.name), suffix: "keys.json")
  }
}
