#!/bin/sh
# A setup script in the style of macOS dotfiles and provisioning scripts, written for the
# tests of the `defaults` tool (not copied from any public script). DefaultsCorpusTests
# runs every `defaults` command below, in order, as the shell would split it (quotes,
# backslashes, `~` at the start of a word), then compares each resulting domain with the
# property list in expected/, written by hand from macOS's documented behaviour.

# ---------------------------------------------------------------- Dock
defaults write com.example.dock autohide -bool true
defaults write com.example.dock autohide-delay -float 0
defaults write com.example.dock autohide-time-modifier -float 0.15
defaults write com.example.dock tilesize -int 36
defaults write com.example.dock largesize -integer 64
defaults write com.example.dock magnification -boolean YES
defaults write com.example.dock orientation -string left
defaults write com.example.dock orientation bottom
defaults write com.example.dock mineffect -string "scale"
defaults write com.example.dock minimize-to-application -bool TRUE
defaults write com.example.dock show-process-indicators -bool false
defaults write com.example.dock show-recents -bool NO
defaults write com.example.dock static-only -bool 0
defaults write com.example.dock launchanim -bool 1
defaults write com.example.dock expose-animation-duration -float 0.1
defaults write com.example.dock expose-group-apps -bool true
defaults write com.example.dock mru-spaces -bool false
defaults write com.example.dock wvous-tl-corner -int 2
defaults write com.example.dock wvous-tl-modifier -int 0
defaults write com.example.dock wvous-br-corner -int 4
defaults write com.example.dock wvous-br-modifier -int 1048576
defaults write com.example.dock persistent-apps -array
defaults write com.example.dock persistent-others -array
defaults write com.example.dock persistent-apps -array-add '<dict><key>tile-data</key><dict><key>file-data</key><dict><key>_CFURLString</key><string>/usr/share/applications/terminal.desktop</string><key>_CFURLStringType</key><integer>0</integer></dict></dict><key>tile-type</key><string>file-tile</string></dict>'
defaults write com.example.dock persistent-apps -array-add '{ "tile-type" = "spacer-tile"; }'
defaults write com.example.dock persistent-others -array-add \
  '<dict><key>tile-type</key><string>recents-tile</string><key>tile-data</key><dict><key>list-type</key><integer>1</integer></dict></dict>'
defaults write com.example.dock "showhidden" -bool yes
defaults write com.example.dock springboard-columns -int 8
defaults write com.example.dock springboard-rows -int 6
defaults write com.example.dock ResetLaunchPad -bool true
defaults write com.example.dock dashboard-in-overlay -bool true
defaults write com.example.dock scroll-to-open -bool true
defaults write com.example.dock tilesize -int 48
defaults write com.example.dock autohide-delay -float 0.25

# ---------------------------------------------------------------- Finder
defaults write com.example.finder AppleShowAllFiles -bool true
defaults write com.example.finder ShowPathbar -bool true
defaults write com.example.finder ShowStatusBar -bool true
defaults write com.example.finder _FXShowPosixPathInTitle -bool true
defaults write com.example.finder _FXSortFoldersFirst -bool true
defaults write com.example.finder FXDefaultSearchScope -string "SCcf"
defaults write com.example.finder FXEnableExtensionChangeWarning -bool false
defaults write com.example.finder FXPreferredViewStyle -string "Nlsv"
defaults write com.example.finder NewWindowTarget -string "PfHm"
defaults write com.example.finder NewWindowTargetPath -string "file:///home/ada/"
defaults write com.example.finder ShowExternalHardDrivesOnDesktop -bool true
defaults write com.example.finder ShowHardDrivesOnDesktop -bool false
defaults write com.example.finder ShowMountedServersOnDesktop -bool true
defaults write com.example.finder ShowRemovableMediaOnDesktop -bool true
defaults write com.example.finder QuitMenuItem -bool true
defaults write com.example.finder DisableAllAnimations -bool true
defaults write com.example.finder WarnOnEmptyTrash -bool false
defaults write com.example.finder FXInfoPanesExpanded -dict General -bool true OpenWith -bool true Privileges -bool true
defaults write com.example.finder FXInfoPanesExpanded -dict-add MetaData -bool false
defaults write com.example.finder FXInfoPanesExpanded -dict-add Comments -int 1
defaults write com.example.finder FXInfoPanesExpanded -dict-add Comments -bool true
defaults write com.example.finder DesktopViewSettings -dict IconViewSettings '{ arrangeBy = grid; gridSpacing = 54; iconSize = 64; showItemInfo = 1; }'
defaults write com.example.finder FK_StandardViewSettings -dict-add ExtendedListViewSettingsV2 '{ calculateAllSizes = 1; textSize = 12; }'
defaults write com.example.finder SidebarWidth -int 176
defaults write com.example.finder SidebarWidth -float 176.5
defaults write com.example.finder FXRecentFolders -array '{ name = Documents; }' '{ name = Downloads; }'
defaults write com.example.finder FXArrangeGroupViewBy -string "Name"
defaults write com.example.finder FXRemoveOldTrashItems -bool true
defaults write com.example.finder FXICloudDriveEnabled -bool false
defaults write com.example.finder FXICloudDriveDesktop 0

# ---------------------------------------------------------------- Global domain
defaults write NSGlobalDomain AppleShowAllExtensions -bool true
defaults write -g AppleInterfaceStyle -string Dark
defaults write -g AppleInterfaceStyle Light
defaults write NSGlobalDomain AppleKeyboardUIMode -int 3
defaults write NSGlobalDomain KeyRepeat -int 2
defaults write NSGlobalDomain InitialKeyRepeat -int 15
defaults write -g ApplePressAndHoldEnabled -bool false
defaults write NSGlobalDomain NSAutomaticCapitalizationEnabled -bool false
defaults write NSGlobalDomain NSAutomaticDashSubstitutionEnabled -bool false
defaults write NSGlobalDomain NSAutomaticPeriodSubstitutionEnabled -bool false
defaults write NSGlobalDomain NSAutomaticQuoteSubstitutionEnabled -bool false
defaults write NSGlobalDomain NSAutomaticSpellingCorrectionEnabled -bool false
defaults write NSGlobalDomain NSNavPanelExpandedStateForSaveMode -bool true
defaults write NSGlobalDomain NSNavPanelExpandedStateForSaveMode2 -bool true
defaults write NSGlobalDomain PMPrintingExpandedStateForPrint -bool true
defaults write NSGlobalDomain NSDocumentSaveNewDocumentsToCloud -bool false
defaults write NSGlobalDomain NSTableViewDefaultSizeMode -int 2
defaults write NSGlobalDomain NSWindowResizeTime -float 0.001
defaults write NSGlobalDomain AppleFontSmoothing -int 1
defaults write -g com.apple.mouse.scaling -float 2.5
defaults write -g com.apple.trackpad.scaling 1.5
defaults write -g com.apple.trackpad.scaling -float 1.5
defaults write -g com.apple.swipescrolldirection -bool false
defaults write -g com.apple.sound.beep.volume -float 0.6065307
defaults write NSGlobalDomain AppleLanguages -array en-GB fr "zh-Hans"
defaults write NSGlobalDomain AppleLocale -string "en_GB@currency=EUR"
defaults write NSGlobalDomain AppleMeasurementUnits -string "Centimeters"
defaults write NSGlobalDomain AppleMetricUnits -bool true
defaults write NSGlobalDomain AppleICUForce24HourTime -int 1
defaults write NSGlobalDomain AppleICUForce24HourTime -bool true
defaults write NSGlobalDomain NSUserKeyEquivalents -dict-add "Save As…" '@$S'
defaults write NSGlobalDomain NSUserKeyEquivalents -dict-add "Paste and Match Style" '@~^v'
defaults write -g NSUserKeyEquivalents -dict-add "Zoom" '@~z'

# ---------------------------------------------------------------- Browser: dotted keys, unicode, property-list text
defaults write com.example.browser HomePage -string "https://example.org/start?lang=en&x=1"
defaults write com.example.browser "com.example.browser.ContentPageGroupIdentifier.WebKit2DeveloperExtrasEnabled" -bool true
defaults write com.example.browser "WebKitPreferences.developerExtrasEnabled" -bool true
defaults write com.example.browser IncludeDevelopMenu -bool true
defaults write com.example.browser ShowFullURLInSmartSearchField -bool true
defaults write com.example.browser AutoOpenSafeDownloads -bool false
defaults write com.example.browser SuppressSearchSuggestions -bool true
defaults write com.example.browser UniversalSearchEnabled -bool false
defaults write com.example.browser "Download Folder" -string "~/Downloads"
defaults write com.example.browser "Window Title" '"My \"quoted\" browser"'
defaults write com.example.browser Greeting 'Grüße aus Köln'
defaults write com.example.browser Grüße -string "naïve café ✓"
defaults write com.example.browser Rocket "🚀"
defaults write com.example.browser Escapes '"tab\there\nnewline \\ backslash"'
defaults write com.example.browser UnicodeEscape '"caf\U00e9"'
defaults write com.example.browser SearchEngines '( "Example Search", "DuckDuck", { name = Custom; url = "https://s.example/?q=%s"; } )'
defaults write com.example.browser EmptyString ""
defaults write com.example.browser EmptyArray '()'
defaults write com.example.browser EmptyDict '{}'
defaults write com.example.browser Data '<48656c6c 6f>'
defaults write com.example.browser Token -data 0badc0ffee
defaults write com.example.browser LastCheck -date "2026-01-15 08:30:00 +0000"
defaults write com.example.browser FirstRun -date 2025-12-31T23:59:59Z
defaults write com.example.browser Zoom -float -1.25
defaults write com.example.browser Offset -int -42
defaults write com.example.browser Huge -int 9007199254740993
defaults write com.example.browser Tiny -float 1e-7
defaults write com.example.browser Big -float 1e20
defaults write com.example.browser Ratio "0.5"
defaults write com.example.browser Literal -string '(not an array)'
defaults write com.example.browser Commented '( a, /* skipped */ b ) // trailing'
defaults write com.example.browser Quote -array '"\""'

# ---------------------------------------------------------------- Screenshots
defaults write com.example.screencapture location -string "/srv/shots/Screen Shots"
defaults write com.example.screencapture location "/srv/shots"
defaults write com.example.screencapture type -string png
defaults write com.example.screencapture type jpg
defaults write com.example.screencapture disable-shadow -bool true
defaults write com.example.screencapture include-date -bool false
defaults write com.example.screencapture show-thumbnail -bool false
defaults write com.example.screencapture name "Screen Shot"
defaults write com.example.screencapture target clipboard

# ---------------------------------------------------------------- Terminal: typed items, type changes
defaults write com.example.terminal StringEncodings -array 4
defaults write com.example.terminal StringEncodings -array-add -int 4
defaults write com.example.terminal StringEncodings -array-add -int 3 -float 2.5 -bool false plain '"quoted item"'
defaults write com.example.terminal "Default Window Settings" -string "Pro"
defaults write com.example.terminal "Startup Window Settings" -string "Pro"
defaults write com.example.terminal SecureKeyboardEntry -bool true
defaults write com.example.terminal ShowLineMarks -int 0
defaults write com.example.terminal ShowLineMarks -bool false
defaults write com.example.terminal FontSize -bool false
defaults write com.example.terminal FontSize -int 0
defaults write com.example.terminal Opacity -float 0
defaults write com.example.terminal Opacity -bool false
defaults write com.example.terminal Counter -int 1
defaults write com.example.terminal Counter -bool true
defaults write com.example.terminal Scale -float 1
defaults write com.example.terminal Scale -int 1
defaults write com.example.terminal Profile -dict name Pro columns -int 120 rows -int 40 blink -bool no font '"Menlo 12"'
defaults write com.example.terminal Profile -dict-add opacity -float 0.85 colors '{ fg = white; bg = black; }' tabs '(one, two)'
defaults write com.example.terminal Profile -dict-add rows -string 40
defaults write com.example.terminal Keys -array-add -string "-n"
defaults write com.example.terminal Dates -array -date "2026-02-01 00:00:00 +0000" -data ff00
defaults write com.example.terminal Removed -int 5
defaults delete com.example.terminal Removed
defaults write com.example.terminal "key.with.dots" -int 7
defaults write com.example.terminal "key with spaces" -string "value with spaces"

# ---------------------------------------------------------------- Path domains (the shell expands ~)
defaults write ~/Library/Preferences/com.example.loginwindow SHOWFULLNAME -bool true
defaults write ~/Library/Preferences/com.example.loginwindow.plist LoginwindowText -string "Property of Example Corp — call 555-0100"
defaults write ~/Library/Preferences/com.example.loginwindow GuestEnabled -bool false
defaults write ~/Library/Preferences/com.example.loginwindow.plist RetriesUntilHint -int 3
defaults write ~/Library/Preferences/com.example.loginwindow SHOWFULLNAME -int 1
defaults write ~/Library/Preferences/ByHost/com.example.trackpad.0A1B2C3D-0000-1111-2222-333344445555 Clicking -bool true
defaults write ~/Library/Preferences/ByHost/com.example.trackpad.0A1B2C3D-0000-1111-2222-333344445555.plist TrackpadThreeFingerDrag -bool true
defaults write ~/Library/Preferences/ByHost/com.example.trackpad.0A1B2C3D-0000-1111-2222-333344445555 TrackpadRightClick -int 1
defaults write ~/prefs/kiosk/com.example.kiosk Mode kiosk

# ---------------------------------------------------------------- Per-host preferences
defaults -currentHost write com.example.screensaver idleTime -int 0
defaults -currentHost write com.example.screensaver moduleDict -dict moduleName -string Flurry path -string "/usr/share/savers/Flurry.saver" type -int 0
defaults -currentHost write com.example.screensaver showClock -bool true
defaults -currentHost write com.example.screensaver idleTime -int 600
defaults -currentHost write -g com.apple.mouse.tapBehavior -int 1
defaults -currentHost write NSGlobalDomain com.apple.trackpad.enableSecondaryClick -bool true
defaults -currentHost write -g AppleFontSmoothing -int 2
defaults -host buildbox write com.example.energy SleepDisabled -bool true
defaults -host buildbox write com.example.energy DisplaySleep -int 10
