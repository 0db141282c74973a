package io.github.ratelimit.web;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;

/**
 * The path patterns and methods a functional route's request predicate matches, built
 * from the events of a {@code RequestPredicates.Visitor} walk (WebFlux and WebMvc.fn have
 * one each, of the same shape; their adapters forward here). The result is a list of
 * {@link Alternative}s: the predicate matches a request when one of them does.
 * <p>
 * As for annotated handlers, conditions other than path and method (headers, query
 * parameters, API versions, custom predicates) are not considered: they match anything
 * here. A negated path, or two paths that must both match, cannot be written as path
 * patterns: the predicate is then not {@linkplain #alternatives() expressible}.
 * <p>
 * One instance per predicate; not thread-safe. Used at startup only.
 */
public final class RouteConditions {

	private static final Set<String> ALL_METHODS = allMethods();

	/** Conditions of the walk so far, innermost on top. */
	private final Deque<Operand> operands = new ArrayDeque<>();

	/** A request method condition. */
	public void method(Set<String> methods) {
		this.operands.push(Operand.of(new Alternative(null, Set.copyOf(methods))));
	}

	/** A path pattern condition. */
	public void path(String pattern) {
		this.operands.push(Operand.of(new Alternative(pattern, null)));
	}

	/**
	 * Any other condition (header, query parameter, version, custom): not considered, it
	 * matches anything.
	 */
	public void other() {
		this.operands.push(Operand.of(Alternative.ANY));
	}

	/** The end of an "and" of the two conditions walked since its start. */
	public void endAnd() {
		Operand right = this.operands.pop();
		Operand left = this.operands.pop();
		if (!left.expressible() || !right.expressible()) {
			this.operands.push(Operand.INEXPRESSIBLE);
			return;
		}
		List<Alternative> result = new ArrayList<>();
		for (Alternative l : left.alternatives()) {
			for (Alternative r : right.alternatives()) {
				if (l.path() != null && r.path() != null) {
					this.operands.push(Operand.INEXPRESSIBLE);
					return;
				}
				Set<String> methods = intersect(l.methods(), r.methods());
				if (methods == null || !methods.isEmpty()) {
					result.add(new Alternative((l.path() != null) ? l.path() : r.path(), methods));
				}
			}
		}
		this.operands.push(new Operand(result, true));
	}

	/** The end of an "or" of the two conditions walked since its start. */
	public void endOr() {
		Operand right = this.operands.pop();
		Operand left = this.operands.pop();
		if (!left.expressible() || !right.expressible()) {
			this.operands.push(Operand.INEXPRESSIBLE);
			return;
		}
		List<Alternative> result = new ArrayList<>(left.alternatives());
		result.addAll(right.alternatives());
		this.operands.push(new Operand(result, true));
	}

	/** The end of a negation of the condition walked since its start. */
	public void endNegate() {
		Operand negated = this.operands.pop();
		if (!negated.expressible()) {
			this.operands.push(Operand.INEXPRESSIBLE);
			return;
		}
		Set<String> excluded = new LinkedHashSet<>();
		for (Alternative alternative : negated.alternatives()) {
			if (alternative.path() != null) {
				this.operands.push(Operand.INEXPRESSIBLE);
				return;
			}
			if (alternative.methods() == null) {
				// not(something we do not consider): we cannot tell, so it matches
				// anything, like the condition
				this.operands.push(Operand.of(Alternative.ANY));
				return;
			}
			excluded.addAll(alternative.methods());
		}
		Set<String> methods = new LinkedHashSet<>(ALL_METHODS);
		methods.removeAll(excluded);
		this.operands.push(Operand.of(new Alternative(null, Set.copyOf(methods))));
	}

	/**
	 * The alternatives the walked predicate matches.
	 * @return the alternatives (empty when it matches nothing), or {@code null} when the
	 * predicate cannot be written as path patterns and methods
	 */
	public @Nullable List<Alternative> alternatives() {
		if (this.operands.size() != 1) {
			// an unbalanced walk: a visitor we do not know the shape of
			return null;
		}
		Operand result = this.operands.peek();
		return result.expressible() ? List.copyOf(result.alternatives()) : null;
	}

	/** Methods of both; {@code null} stands for any method. */
	static @Nullable Set<String> intersect(@Nullable Set<String> a, @Nullable Set<String> b) {
		if (a == null) {
			return b;
		}
		if (b == null) {
			return a;
		}
		Set<String> both = new LinkedHashSet<>(a);
		both.retainAll(b);
		return Set.copyOf(both);
	}

	private static Set<String> allMethods() {
		Set<String> methods = new LinkedHashSet<>();
		for (HttpMethod method : HttpMethod.values()) {
			methods.add(method.name());
		}
		return Set.copyOf(methods);
	}

	/**
	 * One way a predicate matches.
	 *
	 * @param path the path pattern, or {@code null} for any path
	 * @param methods the upper-case methods, or {@code null} for any
	 */
	public record Alternative(@Nullable String path, @Nullable Set<String> methods) {

		static final Alternative ANY = new Alternative(null, null);

	}

	private record Operand(List<Alternative> alternatives, boolean expressible) {

		static final Operand INEXPRESSIBLE = new Operand(List.of(), false);

		static Operand of(Alternative alternative) {
			return new Operand(List.of(alternative), true);
		}

	}

}
