package io.github.ratelimit.keys;

import org.jspecify.annotations.Nullable;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.identity.RequestKeyResolver;

/**
 * A key computed by a Spring Expression ({@code ratelimit.keys.<key>.expression}) over
 * {@link KeyExpressionRoot}: {@code request.header('X-Product')},
 * {@code identity.org ?: request.header('X-Tenant-Id')}. Parsed once; evaluated in a
 * {@link SimpleEvaluationContext} for read-only data binding, which knows no types, no
 * constructors and no beans, so nothing a caller sends can make it run code. Expressions
 * that name a type, a constructor, a bean or a function, or assign, are refused when
 * parsed.
 */
public final class ExpressionKeyResolver implements RequestKeyResolver {

	private static final SpelExpressionParser parser = new SpelExpressionParser();

	private final SpelExpression expression;

	private final EvaluationContext context = SimpleEvaluationContext.forReadOnlyDataBinding()
		.withInstanceMethods()
		.build();

	/**
	 * Parses an expression.
	 * @param expression the expression
	 * @throws IllegalArgumentException when it is malformed, or names a type, a
	 * constructor, a bean or a function, or assigns
	 */
	public ExpressionKeyResolver(String expression) {
		if (expression.isBlank()) {
			throw new IllegalArgumentException("an expression must not be blank");
		}
		try {
			this.expression = (SpelExpression) parser.parseExpression(expression);
		}
		catch (ParseException ex) {
			throw new IllegalArgumentException(ex.getSimpleMessage() + " (at position " + ex.getPosition() + ")", ex);
		}
		checkReadOnly(this.expression.getAST());
	}

	private static void checkReadOnly(SpelNode node) {
		String refused = null;
		if (node instanceof TypeReference) {
			refused = "a type reference (T(...))";
		}
		else if (node instanceof ConstructorReference) {
			refused = "a constructor (new ...)";
		}
		else if (node instanceof BeanReference) {
			refused = "a bean reference (@...)";
		}
		else if (node instanceof FunctionReference) {
			refused = "a function (#...())";
		}
		else if (node instanceof Assign) {
			refused = "an assignment";
		}
		if (refused != null) {
			throw new IllegalArgumentException(
					refused + " is not allowed: a key's expression only reads the request and the identity");
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			checkReadOnly(node.getChild(i));
		}
	}

	@Override
	public @Nullable String resolve(ClientRequest request, Identity identity) {
		return this.expression.getValue(this.context, new KeyExpressionRoot(request, identity), String.class);
	}

	@Override
	public String toString() {
		return "expression " + this.expression.getExpressionString();
	}

}
