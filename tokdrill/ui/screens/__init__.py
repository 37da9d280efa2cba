"""The app's screens: today, drill, review, stats, browse, help and small dialogs."""
