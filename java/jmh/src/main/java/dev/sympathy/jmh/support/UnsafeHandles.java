package dev.sympathy.jmh.support;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * {@code sun.misc.Unsafe} methods as method handles bound to {@code theUnsafe}, for the seeds'
 * Unsafe programs (the struct table's flyweight, the serialization codec). Reached by
 * reflection, so the module compiles without Unsafe's deprecation warnings; the forks run with
 * {@code --sun-misc-unsafe-memory-access=allow}.
 *
 * <pre>{@code
 * static final MethodHandle GET_LONG = UnsafeHandles.bound("getLong", long.class, long.class);
 * try {
 *     long v = (long) GET_LONG.invokeExact(address);
 * } catch (Throwable t) {
 *     throw UnsafeHandles.rethrow(t);
 * }
 * }</pre>
 */
public final class UnsafeHandles {
    private static final Class<?> UNSAFE_CLASS;
    private static final Object UNSAFE;

    static {
        try {
            UNSAFE_CLASS = Class.forName("sun.misc.Unsafe");
            final Field field = UNSAFE_CLASS.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            UNSAFE = field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private UnsafeHandles() {
    }

    /**
     * The Unsafe method {@code name(parameters)} returning {@code returns}, bound to theUnsafe.
     *
     * @throws IllegalStateException when this JDK's Unsafe has no such method
     */
    public static MethodHandle bound(String name, Class<?> returns, Class<?>... parameters) {
        try {
            return MethodHandles.lookup()
                    .findVirtual(UNSAFE_CLASS, name, MethodType.methodType(returns, parameters))
                    .bindTo(UNSAFE);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("sun.misc.Unsafe." + name + " is not available: " + e, e);
        }
    }

    /**
     * Rethrows what a bound Unsafe handle threw: {@code invokeExact} declares {@code Throwable},
     * but Unsafe's methods throw nothing checked, so {@code t} is an unchecked exception or an
     * error and is thrown as it is. Written {@code throw rethrow(t)} so that javac sees the path end;
     * the {@link IllegalStateException} returned, wrapping {@code t}, is for a checked throwable
     * that cannot come.
     */
    public static IllegalStateException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
