package dev.sympathy.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog reader, on the repository's experiments folder (surefire passes its path) and on bad files. */
class CatalogTest {
    private static final String COMMON = """
            runner_params = ["preset"]
            [[metrics]]
            name = "ns_per_op"
            unit = "ns"
            better = "lower"
            does = "Nanoseconds per operation."
            """;

    private static final String WALK = """
            name = "walk"
            metrics = ["ns_per_op"]
            runs = { smoke = 1, quick = 3, default = 5, full = 5 }
            purpose = "Walks."

            [[params]]
            name = "size_bytes"
            role = "work"
            does = "Bytes."
            full = 3
            default = 1073741824
            quick = 2147483648
            smoke = 4194304

            [[params]]
            name = "threads"
            role = "work"
            does = "Threads."
            full = [1, 2, 4]
            default = [1, 2]
            quick = [1, 2]
            smoke = [1]

            [[variants]]
            name = "dyn-4"
            java = "mega"
            languages = ["rust", "java"]
            does = "Four."
            """;

    private static Path folder(Path dir, String walk) throws IOException {
        Files.writeString(dir.resolve("common.toml"), COMMON);
        Files.writeString(dir.resolve("walk.toml"), walk);
        return dir;
    }

    @Test
    void shouldReadTheRepositorysCatalogFromTheProperty() {
        final Catalog catalog = Catalog.fromProperty();
        final ExperimentSpec walk = catalog.experiment("memory-walk");
        final ParamSpec size = walk.param("size_bytes").orElseThrow();
        assertEquals(Role.WORK, size.role());
        assertTrue(size.longAt(Preset.QUICK) >= 2L << 20, "size_bytes at quick: " + size.at(Preset.QUICK));
        assertEquals(List.of("off-heap"), walk.param("memory").orElseThrow().valuesAt(Preset.SMOKE));
        assertEquals(false, walk.param("huge_pages").orElseThrow().at(Preset.FULL));
        assertTrue(walk.variantsIn(Language.JAVA).contains("linear"));
        // skip_at = ["quick"]: implemented, run from default on, in smoke's plumbing check too
        assertTrue(walk.variantsIn(Language.JAVA).contains("linear-on-heap"));
        assertFalse(walk.variantsAt(Language.JAVA, Preset.QUICK).contains("linear-on-heap"));
        assertTrue(walk.variantsAt(Language.JAVA, Preset.QUICK).contains("linear"));
        assertTrue(walk.variantsAt(Language.JAVA, Preset.DEFAULT).contains("linear-on-heap"));
        assertTrue(walk.variantsAt(Language.JAVA, Preset.SMOKE).contains("linear-on-heap"));
        assertEquals(Map.of("smoke", 1, "quick", 3, "default", 5, "full", 5), walk.runs(), "memory-walk's runs");
        assertEquals(Better.LOWER, catalog.metric("ns_per_op").orElseThrow().better());
        assertFalse(catalog.isWorkParam("memory-walk", "preset"));
        assertTrue(catalog.isWorkParam("memory-walk", "size_bytes"));
        assertTrue(catalog.isWorkParam("atomic-increment", "thread"), "the experiment's role wins over common.toml's");
        assertFalse(catalog.isWorkParam("atomic-increment", "core"));
    }

    @Test
    void shouldNarrowJavaVariantsAndKeepTheOthers() {
        final Catalog catalog = Catalog.fromProperty();
        final ExperimentSpec map = catalog.onlyJavaVariants(java.util.List.of("chronicle-map")).experiment("offheap-map");
        assertEquals(java.util.List.of("chronicle-map"), map.variantsIn(Language.JAVA));
        assertEquals(java.util.List.of("offheap-map", "queue"),
                java.util.List.of(map.name(), catalog.onlyJavaVariants(java.util.List.of("p1c1")).experiment("queue").name()));
        assertEquals(false, map.compareDefault());
        assertEquals(true, catalog.experiment("queue").compareDefault());
        // a variant named runs even at a preset its skip_at lists
        final ExperimentSpec walk = catalog.onlyJavaVariants(java.util.List.of("linear-on-heap")).experiment("memory-walk");
        assertEquals(java.util.List.of("linear-on-heap"), walk.variantsAt(Language.JAVA, Preset.QUICK));
    }

    @Test
    void shouldReadScalarsListsAndJavaNames(@TempDir Path dir) throws IOException {
        final ExperimentSpec walk = Catalog.load(folder(dir, WALK)).experiment("walk");
        final ParamSpec size = walk.param("size_bytes").orElseThrow();
        assertEquals(4194304L, size.at(Preset.SMOKE));
        assertEquals(2147483648L, size.longAt(Preset.QUICK));
        assertEquals(List.of(3L), size.valuesAt(Preset.FULL));
        final ParamSpec threads = walk.param("threads").orElseThrow();
        assertTrue(threads.isList());
        assertEquals(List.of(1L, 2L), threads.valuesAt(Preset.DEFAULT));
        assertThrows(CatalogException.class, () -> threads.longAt(Preset.SMOKE));
        assertEquals(List.of("mega"), walk.variantsIn(Language.JAVA));
        assertEquals(List.of("dyn-4"), walk.variantsIn(Language.RUST));
        assertEquals("dyn-4", walk.variantName(Language.JAVA, "mega"));
        assertEquals(Optional.empty(), walk.param("nothing"));
    }

    @Test
    void shouldRefuseAListAtOnlySomePresets(@TempDir Path dir) throws IOException {
        final CatalogException e = assertThrows(CatalogException.class,
                () -> Catalog.load(folder(dir, WALK.replace("default = 1073741824", "default = [1, 2]"))));
        assertTrue(e.getMessage().contains("walk.toml: param `size_bytes` is a list at some presets and not at others"),
                e.getMessage());
    }

    @Test
    void shouldNameTheFileAndKeyOfAnUnknownField(@TempDir Path dir) throws IOException {
        final CatalogException e = assertThrows(CatalogException.class,
                () -> Catalog.load(folder(dir, WALK.replace("purpose =", "porpose = \"typo\"\npurpose ="))));
        assertTrue(e.getMessage().contains("walk.toml") && e.getMessage().contains("porpose"), e.getMessage());
    }

    @Test
    void shouldNameTheFolderWhenTheCatalogIsMissing(@TempDir Path dir) {
        final CatalogException e = assertThrows(CatalogException.class, () -> Catalog.load(dir.resolve("nowhere")));
        assertTrue(e.getMessage().contains("nowhere") && e.getMessage().contains(Catalog.PROPERTY), e.getMessage());
    }

    @Test
    void shouldPickPresetsByTheirFlags() {
        assertEquals(Optional.of(Preset.SMOKE), Preset.fromFlag("--smoke"));
        assertEquals(Optional.of(Preset.FULL), Preset.fromFlag("--full"));
        assertEquals(Optional.empty(), Preset.fromFlag("--default"));
        assertEquals("default", Preset.DEFAULT.label());
    }
}
