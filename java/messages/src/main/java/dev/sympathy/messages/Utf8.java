package dev.sympathy.messages;

import org.agrona.DirectBuffer;

/**
 * Well-formed UTF-8 (the Unicode standard's Table 3-7, what Rust's {@code str::from_utf8}
 * accepts: no overlong forms, no surrogates, nothing above U+10FFFF), checked in place without
 * allocating, so that a venue Rust refuses Java refuses too.
 */
final class Utf8 {
    private Utf8() {}

    /** Whether the {@code length} bytes at {@code at} are well-formed UTF-8. */
    static boolean isValid(DirectBuffer buffer, int at, int length) {
        int i = 0;
        while (i < length) {
            int b = buffer.getByte(at + i) & 0xFF;
            if (b < 0x80) {
                i++;
                continue;
            }
            int need;
            int lo = 0x80;
            int hi = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                need = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                need = 2;
                if (b == 0xE0) {
                    lo = 0xA0;
                } else if (b == 0xED) {
                    hi = 0x9F;
                }
            } else if (b >= 0xF0 && b <= 0xF4) {
                need = 3;
                if (b == 0xF0) {
                    lo = 0x90;
                } else if (b == 0xF4) {
                    hi = 0x8F;
                }
            } else {
                return false;
            }
            if (i + need >= length) {
                return false;
            }
            for (int k = 1; k <= need; k++) {
                int c = buffer.getByte(at + i + k) & 0xFF;
                int min = k == 1 ? lo : 0x80;
                int max = k == 1 ? hi : 0xBF;
                if (c < min || c > max) {
                    return false;
                }
            }
            i += need + 1;
        }
        return true;
    }
}
