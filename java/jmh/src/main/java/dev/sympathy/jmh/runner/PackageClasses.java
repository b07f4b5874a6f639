package dev.sympathy.jmh.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The top-level classes of one package, read from where a class of it was loaded: the benchmarks
 * jar, or a folder of classes (Maven's {@code target/classes} in the tests). Subpackages (JMH's
 * generated {@code jmh_generated}) and nested classes are left out. How {@link JmhExperiments}
 * finds the experiment class beside a benchmark class.
 *
 * <pre>{@code
 * PackageClasses.beside(MemoryWalk.class)
 * // [dev.sympathy.jmh.walk.MemoryWalk, dev.sympathy.jmh.walk.MemoryWalkExperiment]
 * }</pre>
 */
final class PackageClasses {
    private PackageClasses() {
    }

    /**
     * The names of the top-level classes in the package of {@code member}, found where
     * {@code member} was loaded from, sorted.
     *
     * @throws UncheckedIOException when that jar or folder cannot be read
     * @throws IllegalStateException when the class came from neither a jar nor a folder
     */
    static List<String> beside(Class<?> member) {
        final CodeSource source = member.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IllegalStateException(member.getName() + " was loaded from no jar or folder the runner can list");
        }
        final Path location;
        try {
            location = Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalStateException(member.getName() + " was loaded from " + source.getLocation()
                    + ", which the runner cannot list", e);
        }
        final String folder = member.getPackageName().replace('.', '/') + "/";
        final TreeSet<String> names = new TreeSet<>();
        try {
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.list(location.resolve(folder))) {
                    files.map(file -> file.getFileName().toString()).forEach(file -> add(names, folder + file));
                }
            } else {
                try (JarFile jar = new JarFile(location.toFile())) {
                    for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                        add(names, entries.nextElement().getName());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classes of package " + member.getPackageName()
                    + " in " + location, e);
        }
        return names.stream().filter(name -> name.startsWith(member.getPackageName() + ".")
                && name.indexOf('.', member.getPackageName().length() + 1) < 0).toList();
    }

    /** Adds the class name of a {@code .class} path that is no nested class (nor {@code package-info}). */
    private static void add(TreeSet<String> names, String path) {
        if (path.endsWith(".class") && !path.contains("$") && !path.contains("-")) {
            names.add(path.substring(0, path.length() - ".class".length()).replace('/', '.'));
        }
    }
}
