#if Configuration
  import Configuration

  /// A provider's values at one moment, copied out of the suite; reads it as the provider
  /// reads the suite, through ``UserDefaultsProvider/lookup(_:name:type:)``.
  @available(Configuration 1.0, *)
  struct UserDefaultsSnapshot: ConfigSnapshot, Equatable, CustomStringConvertible {
    let providerName: String
    let values: [String: PreferenceValue]

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
      let name = UserDefaultsProvider.storedName(key)
      return try UserDefaultsProvider.lookup(values[name], name: name, type: type)
    }

    var description: String { "\(providerName)[\(values.count) values]" }
  }
#endif
