import AppKit
