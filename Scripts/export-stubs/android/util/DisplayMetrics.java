// Minimal stub of android.util.DisplayMetrics: only what the exported Kotlin adapter uses (the
// public float field `density`, as in the Android SDK). Test support for
// Scripts/export-stubs/check-kotlin.sh; never shipped in an export, never run.
package android.util;

public class DisplayMetrics {
    public float density;

    public DisplayMetrics() {
        throw new RuntimeException("Stub!");
    }
}
