// Minimal stub of android.content.res.Resources: only what the exported Kotlin adapter uses,
// with the Android SDK's signature. Test support for Scripts/export-stubs/check-kotlin.sh; never
// shipped in an export, never run.
package android.content.res;

import android.util.DisplayMetrics;

public class Resources {
    private Resources() {
        throw new RuntimeException("Stub!");
    }

    public DisplayMetrics getDisplayMetrics() {
        throw new RuntimeException("Stub!");
    }
}
