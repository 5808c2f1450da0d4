import { readdirSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { ObservedCalls } from './coverage';

/**
 * Issue #25's "function-valued dependencies carrying state": closures (functions made inside another
 * function, so they capture its scope) that are made in one file and handed to code of another.
 *
 * - Which functions ran, and where, comes from precise coverage: a V8 function's range is in the script
 *   V8 ran (tsx's esbuild output, or vite-node's for vitest). Its start and the last character of its
 *   body are mapped through the script's inline source map to the `.ts` file, where the innermost
 *   function that holds both (and starts no later than the start) is the function that ran.
 * - A closure: an arrow function, a function expression, a method of an object literal, or a function
 *   declaration, inside another function (not at module scope). A class's methods, constructor,
 *   accessors and field initializers are not closures (their scope is the class), nor are an object
 *   literal's accessors (reading a property is no function-valued dependency); functions inside a
 *   class method are.
 * - Escapes its file (static, TypeScript's language service over `src/`): the closure's value is
 *   followed through the file (parentheses and casts, `||`/`??`/`?:`, object and array literals and
 *   spreads, variables, destructuring, property reads, assignments to variables or properties, returns
 *   and the calls that get them back, arguments to functions of the same file and their parameters)
 *   until it reaches another file: an argument of a function or constructor declared in another file
 *   (or an interface's method implemented there, or a function value handed in, whose code is not this
 *   file's), or a variable, property or function whose references include another file. A library
 *   function (an array's `map`, `setTimeout`, a promise's `then`, an event emitter's `on`, a zod
 *   schema's `transform`) is not another file of `src/`: the closure stays with its file, but for
 *   `Object.freeze`/`Object.assign` (which give it back), a container's `set`/`push`/`add` (followed
 *   to the container's reads) and a `Proxy`'s traps (called by whoever holds the proxy). It says what
 *   can reach another file, not what does (a closure handed out may be called by its own file only).
 * - Called from another file (observed): in a few more triggers of the path after the window, a
 *   breakpoint at each closure that ran notes its caller (the nearest frame of a `src/` file below it,
 *   library frames skipped) and never pauses (`CoverageWindow.watchCallers`). Exact for those
 *   triggers; a closure called only at startup, or only from its own file (directly or through a
 *   library: a promise's `then`, a timer), is not counted.
 */

/** A function of a counted `src/` file that ran in a window, with its range in the script V8 ran. */
export interface RanRange {
  /** Relative to `src/`. */
  file: string;
  scriptId: string;
  name: string;
  startOffset: number;
  endOffset: number;
}

export type ClosureKind = 'arrow' | 'function expression' | 'object method' | 'function declaration';

/** Where a closure's value goes out of its file. */
export interface ClosureEscape {
  /** The property or parameter name it is handed over as. */
  as: string;
  /** How: `callee(parameter.property)`, `returned by f()`, `stored in x.y`, ... */
  via: string;
  /** The first file of `src/` it reaches (`(handed in)`: a function value passed to this file from outside). */
  to: string;
}

/** A closure that ran in the window. */
export interface ClosureSite {
  /** Relative to `src/`. */
  file: string;
  /** 1-based, in the `.ts` source. */
  line: number;
  column: number;
  kind: ClosureKind;
  /** The function it is made in (`Class.method`, `f`, `f > g` for nested ones, or the property it is assigned to). */
  enclosing: string;
  escape?: ClosureEscape;
}

/** A closure that ran, and its ranges in the scripts that ran it. */
export interface LocatedClosure {
  site: ClosureSite;
  ranges: RanRange[];
}

/** A located function: whether it is a closure, and if so where it was made. */
type Located = { site: ClosureSite | undefined; key: string };

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.ConciseBody };

function isFunctionWithBody(node: ts.Node): node is FunctionNode {
  return FUNCTION_KINDS.has(node.kind) && (node as ts.FunctionLikeDeclaration).body !== undefined;
}

/** V8's functions that are no function of the source: class field and static initializers. */
const NOT_FUNCTIONS = new Set(['<instance_members_initializer>', '<static_initializer>']);

/** A value's way through its file: the property names to read from it to get the closure (`()`: call it; `[]`: an element). */
type Path = readonly string[];

const MAX_DEPTH = 12;

/** A container method storing its arguments from this index on (`map.set(key, value)`: 1). */
const CONTAINER_STORES = new Map([
  ['set', 1],
  ['push', 0],
  ['unshift', 0],
  ['add', 0],
]);
/** Container methods whose call gives an element back, or a view of the elements. */
const ELEMENT_READS = new Set(['get', 'at', 'find', 'findLast', 'shift', 'pop']);
const ELEMENT_VIEWS = new Set(['values', 'slice', 'filter', 'reverse', 'toReversed', 'toSorted', 'splice']);

/**
 * Finds the closures among the functions that ran, and where each goes out of its file. One instance
 * for a run: the language service, the scripts' source maps and each function's answer are kept.
 */
export class ClosureAnalysis {
  private service: ts.LanguageService | undefined;
  private readonly scripts = new Map<string, Promise<ScriptMap | undefined>>();
  private readonly located = new Map<string, Located | undefined>();
  private readonly escapes = new Map<ts.Node, ClosureEscape | undefined>();

  constructor(
    private readonly srcDir: string,
    private readonly sourceOf: (scriptId: string) => Promise<string>,
  ) {}

  /**
   * The closures among `ranges` (functions that ran), with where they escape their file; `ranges` are
   * the script ranges of each (a module loaded twice has two).
   */
  async closures(ranges: readonly RanRange[]): Promise<LocatedClosure[]> {
    const byKey = new Map<string, LocatedClosure>();
    for (const range of ranges) {
      const located = await this.locate(range);
      if (!located?.site) continue;
      const known = byKey.get(located.key);
      if (known) known.ranges.push(range);
      else byKey.set(located.key, { site: located.site, ranges: [range] });
    }
    return [...byKey.values()];
  }

  /** The closure a function of a script is, if it is one (and could be found in the `.ts` source). */
  async locate(range: RanRange): Promise<Located | undefined> {
    const id = `${range.scriptId}:${range.startOffset}`;
    if (this.located.has(id)) return this.located.get(id);
    let located: Located | undefined;
    if (!NOT_FUNCTIONS.has(range.name)) {
      const map = await this.scriptMap(range.scriptId, range.file);
      const fn = map && this.functionAt(map, range);
      if (fn) {
        const site = this.closureSite(fn, range.file);
        located = { site, key: `${range.file}:${fn.getStart()}` };
      }
    }
    this.located.set(id, located);
    return located;
  }

  private scriptMap(scriptId: string, file: string): Promise<ScriptMap | undefined> {
    let map = this.scripts.get(scriptId);
    if (!map) {
      map = this.sourceOf(scriptId).then(
        (source) => scriptMapOf(source, join(this.srcDir, file)),
        () => undefined,
      );
      this.scripts.set(scriptId, map);
    }
    return map;
  }

  /** The `.ts` function a V8 range of the script is: the innermost one holding its mapped start and body end. */
  private functionAt(map: ScriptMap, range: RanRange): FunctionNode | undefined {
    const source = this.sourceFile(range.file);
    if (!source) return undefined;
    const start = map.original(range.startOffset, source);
    const last = map.original(Math.max(range.startOffset, range.endOffset - 1), source);
    if (start === undefined || last === undefined) return undefined;
    const chain: FunctionNode[] = [];
    const visit = (node: ts.Node): void => {
      if (isFunctionWithBody(node)) chain.push(node);
      const child = ts.forEachChild(node, (c) => (c.getStart(source) <= last && last < c.end ? c : undefined));
      if (child) visit(child);
    };
    visit(source);
    for (let i = chain.length - 1; i >= 0; i--) {
      const fn = chain[i]!;
      if (fn.getStart(source) <= start) return fn;
    }
    return undefined;
  }

  private closureSite(fn: FunctionNode, file: string): ClosureSite | undefined {
    const kind = closureKind(fn);
    if (!kind) return undefined;
    const outer = enclosingFunction(fn);
    if (!outer) return undefined;
    const source = fn.getSourceFile();
    const { line, character } = source.getLineAndCharacterOfPosition(fn.getStart(source));
    const site: ClosureSite = { file, line: line + 1, column: character + 1, kind, enclosing: enclosingLabel(outer) };
    const escape = this.escapeOf(fn);
    if (escape) site.escape = escape;
    return site;
  }

  // ---- where a closure's value goes ---------------------------------------------------------------

  private escapeOf(fn: FunctionNode): ClosureEscape | undefined {
    if (this.escapes.has(fn)) return this.escapes.get(fn);
    const tracker = new Tracker(this.languageService(), this.srcDir, fn.getSourceFile());
    let escape: ClosureEscape | undefined;
    if (ts.isFunctionDeclaration(fn)) escape = fn.name ? tracker.references(fn.name, [], 0) : undefined;
    else escape = tracker.track(fn, [], 0);
    this.escapes.set(fn, escape);
    return escape;
  }

  private sourceFile(file: string): ts.SourceFile | undefined {
    return this.languageService().getProgram()?.getSourceFile(join(this.srcDir, file));
  }

  private languageService(): ts.LanguageService {
    if (this.service) return this.service;
    const root = dirname(this.srcDir);
    const configPath = join(root, 'tsconfig.json');
    const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    const options = ts.parseJsonConfigFileContent(config.config ?? {}, ts.sys, root).options;
    const files = listTs(this.srcDir);
    const texts = new Map<string, string>();
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => files,
      getScriptVersion: () => '1',
      getScriptSnapshot: (path) => {
        let text = texts.get(path);
        if (text === undefined) {
          const read = ts.sys.readFile(path);
          if (read === undefined) return undefined;
          texts.set(path, (text = read));
        }
        return ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => root,
      getCompilationSettings: () => ({ ...options, noEmit: true }),
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (p) => ts.sys.fileExists(p),
      readFile: (p) => ts.sys.readFile(p),
      readDirectory: (...args) => ts.sys.readDirectory(...args),
      directoryExists: (p) => ts.sys.directoryExists(p),
      getDirectories: (p) => ts.sys.getDirectories(p),
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
    return this.service;
  }
}

/** Follows one closure's value through its file (see the header). */
class Tracker {
  private readonly checker: ts.TypeChecker;
  private readonly seen = new Set<string>();
  private readonly home: string;

  constructor(
    private readonly service: ts.LanguageService,
    private readonly srcDir: string,
    private readonly homeFile: ts.SourceFile,
  ) {
    this.checker = service.getProgram()!.getTypeChecker();
    this.home = homeFile.fileName;
  }

  /** Where the value of `node` (with the closure at `path` in it) goes out of the file, if it does. */
  track(node: ts.Node, path: Path, depth: number): ClosureEscape | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const key = `${node.pos}:${node.end}:${node.kind}:${path.join('.')}`;
    if (this.seen.has(key)) return undefined;
    this.seen.add(key);
    const parent = node.parent;
    if (!parent) return undefined;
    const next = depth + 1;

    // object literal methods: the object holds the function as a property
    if (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(parent)) return this.track(parent, [nameOf(node.name), ...path], next);

    if (
      ts.isParenthesizedExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isSatisfiesExpression(parent) ||
      ts.isNonNullExpression(parent) ||
      ts.isTypeAssertionExpression(parent) ||
      ts.isAwaitExpression(parent)
    )
      return this.track(parent, path, next);
    if (ts.isConditionalExpression(parent)) return parent.condition === node ? undefined : this.track(parent, path, next);
    if (ts.isBinaryExpression(parent)) return this.binary(parent, node, path, next);
    if (ts.isPropertyAssignment(parent)) return parent.initializer === node ? this.track(parent.parent, [nameOf(parent.name), ...path], next) : undefined;
    if (ts.isShorthandPropertyAssignment(parent)) return this.track(parent.parent, [parent.name.text, ...path], next);
    if (ts.isSpreadAssignment(parent)) return this.track(parent.parent, path, next);
    if (ts.isArrayLiteralExpression(parent)) return this.track(parent, ['[]', ...path], next);
    if (ts.isSpreadElement(parent)) return path[0] === '[]' ? this.track(parent.parent, path, next) : undefined;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
      const name = parent.name.text;
      if (path[0] === name || path[0] === '*') return this.track(parent, path.slice(1), next);
      // a container's element read back: `map.get(k)`, `list.at(i)`, `set.values()`
      const call = parent.parent;
      if (path[0] === '[]' && ts.isCallExpression(call) && call.expression === parent) {
        if (ELEMENT_READS.has(name)) return this.track(call, path.slice(1), next);
        if (ELEMENT_VIEWS.has(name)) return this.track(call, path, next);
      }
      return undefined;
    }
    if (ts.isForOfStatement(parent) && parent.expression === node) {
      const list = parent.initializer;
      if (path[0] !== '[]' || !ts.isVariableDeclarationList(list)) return undefined;
      const decl = list.declarations[0];
      return decl ? this.binding(decl.name, path.slice(1), next) : undefined;
    }
    if (ts.isElementAccessExpression(parent) && parent.expression === node) {
      const arg = parent.argumentExpression;
      const name = ts.isStringLiteralLike(arg) ? arg.text : '[]';
      return path[0] === name || (path[0] !== undefined && name === '[]') ? this.track(parent, path.slice(1), next) : undefined;
    }
    if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
      if (parent.expression === node) return path[0] === '()' ? this.track(parent, path.slice(1), next) : undefined;
      const index = parent.arguments?.indexOf(node as ts.Expression) ?? -1;
      return index < 0 ? undefined : this.argument(parent, index, path, next);
    }
    if (ts.isReturnStatement(parent)) {
      const fn = enclosingFunction(parent);
      return fn ? this.returned(fn, path, next) : undefined;
    }
    if (ts.isArrowFunction(parent) && parent.body === node) return this.returned(parent, path, next);
    if (ts.isVariableDeclaration(parent)) return parent.initializer === node ? this.binding(parent.name, path, next) : undefined;
    if (ts.isPropertyDeclaration(parent)) return parent.initializer === node ? this.references(parent.name, path, next) : undefined;
    if (ts.isExportAssignment(parent) || ts.isExportSpecifier(parent)) return { as: 'export', via: 'exported', to: '(importers)' };
    return undefined;
  }

  private binary(parent: ts.BinaryExpression, node: ts.Node, path: Path, depth: number): ClosureEscape | undefined {
    const op = parent.operatorToken.kind;
    if (op === ts.SyntaxKind.EqualsToken || op === ts.SyntaxKind.QuestionQuestionEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken) {
      if (parent.right !== node) return undefined;
      const target = parent.left;
      const escape = ts.isIdentifier(target)
        ? this.references(target, path, depth, target)
        : ts.isPropertyAccessExpression(target)
          ? this.references(target.name, path, depth, target.name)
          : undefined;
      // the assignment's own value (`a = b = f`)
      return escape ?? this.track(parent, path, depth);
    }
    if (
      op === ts.SyntaxKind.BarBarToken ||
      op === ts.SyntaxKind.QuestionQuestionToken ||
      op === ts.SyntaxKind.AmpersandAmpersandToken ||
      (op === ts.SyntaxKind.CommaToken && parent.right === node)
    )
      return this.track(parent, path, depth);
    return undefined;
  }

  /** A variable (or a destructuring of it) initialized with the value. */
  private binding(name: ts.BindingName, path: Path, depth: number): ClosureEscape | undefined {
    if (ts.isIdentifier(name)) return this.references(name, path, depth);
    if (ts.isObjectBindingPattern(name)) {
      for (const element of name.elements) {
        const prop = element.propertyName ? nameOf(element.propertyName) : ts.isIdentifier(element.name) ? element.name.text : undefined;
        if (element.dotDotDotToken) {
          const escape = this.binding(element.name, path, depth);
          if (escape) return escape;
        } else if (prop !== undefined && prop === path[0]) return this.binding(element.name, path.slice(1), depth);
      }
      return undefined;
    }
    if (path[0] !== '[]') return undefined;
    for (const element of name.elements) {
      if (ts.isOmittedExpression(element)) continue;
      const escape = this.binding(element.name, element.dotDotDotToken ? path : path.slice(1), depth);
      if (escape) return escape;
    }
    return undefined;
  }

  /**
   * The references of a name (a variable, parameter, function, property): one in another file is where
   * the value goes out; each one in the file is followed on. `skip`: the reference that put the value there.
   */
  references(name: ts.Node, path: Path, depth: number, skip?: ts.Node): ClosureEscape | undefined {
    const label = name.getText(this.homeFile);
    for (const ref of this.referencesOf(name)) {
      if (ref.fileName !== this.home) {
        if (this.isUse(ref)) return { as: lastName(path) ?? label, via: `${label}${render(path)}, read there`, to: this.rel(ref.fileName) };
        continue;
      }
      if (ref.textSpan.start === name.getStart(this.homeFile) || (skip && ref.textSpan.start === skip.getStart(this.homeFile))) continue;
      const at = identifierAt(this.homeFile, ref.textSpan.start);
      if (!at) continue;
      const use = ts.isPropertyAccessExpression(at.parent) && at.parent.name === at ? at.parent : at;
      const escape = this.track(use, path, depth + 1);
      if (escape) return escape;
    }
    return undefined;
  }

  /** The value is the result of `fn`: where the calls of `fn` take it. */
  private returned(fn: ts.FunctionLikeDeclaration, path: Path, depth: number): ClosureEscape | undefined {
    if (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) return this.track(fn, ['()', ...path], depth);
    if (ts.isMethodDeclaration(fn) && ts.isObjectLiteralExpression(fn.parent)) return this.track(fn.parent, [nameOf(fn.name), '()', ...path], depth);
    if (!fn.name) return undefined;
    const label = `${ts.isMethodDeclaration(fn) || ts.isGetAccessor(fn) ? `${classLabel(fn)}.` : ''}${fn.name.getText(this.homeFile)}`;
    const call = ts.isGetAccessor(fn) ? path : ['()', ...path];
    for (const ref of this.referencesOf(fn.name)) {
      if (ref.fileName !== this.home) {
        if (this.isUse(ref))
          return { as: lastName(path) ?? 'result', via: `returned by ${label}${ts.isGetAccessor(fn) ? '' : '()'}${render(path)}`, to: this.rel(ref.fileName) };
        continue;
      }
      if (ref.isDefinition) continue;
      const at = identifierAt(this.homeFile, ref.textSpan.start);
      if (!at) continue;
      const use = ts.isPropertyAccessExpression(at.parent) && at.parent.name === at ? at.parent : at;
      const escape = this.track(use, call, depth + 1);
      if (escape) return escape;
    }
    return undefined;
  }

  /** The value is argument `index` of a call: the callee's parameter in this file, or another file. */
  private argument(call: ts.CallExpression | ts.NewExpression, index: number, path: Path, depth: number): ClosureEscape | undefined {
    const callee = calleeLabel(call);
    const signature = this.checker.getResolvedSignature(call);
    let decl: ts.SignatureDeclaration | ts.JSDocSignature | undefined = this.calleeFunction(call) ?? signature?.declaration;
    if (!decl || ts.isJSDocSignature(decl))
      return { as: lastName(path) ?? `argument ${index + 1}`, via: `${callee}(argument ${index + 1}${render(path)})`, to: '(unresolved)' };
    decl = implementationOf(decl, this.checker) ?? decl;
    const param = parameterAt(decl, index);
    const paramName = param ? param.name.getText(decl.getSourceFile()) : `argument ${index + 1}`;
    const here = { as: lastName(path) ?? paramName, via: `${callee}(${paramName}${render(path)})` };
    const declFile = decl.getSourceFile().fileName;
    if (!this.inSrc(declFile)) return this.library(call, index, path, depth);
    if (isFunctionWithBody(decl)) {
      if (declFile !== this.home) return { ...here, to: this.rel(declFile) };
      return param ? this.parameter(param, param.dotDotDotToken ? ['[]', ...path] : path, depth) : undefined;
    }
    // a signature (an interface's method, a function type): the code behind it is where it is implemented
    // (the test helpers' and the sandbox's implementations only when there is no other)
    const all = this.implementationsOf(call);
    const runtime = all.filter((impl) => impl.fileName === this.home || !NOT_COUNTED.some((re) => re.test(this.rel(impl.fileName))));
    const impls = runtime.length > 0 ? runtime : all;
    for (const impl of impls) {
      if (impl.fileName !== this.home) continue;
      const fn = functionContaining(this.homeFile, impl.textSpan.start);
      // implemented here by a function value from elsewhere (`chain: deployment.chain`)
      if (!fn) return { ...here, to: this.originOf(impl.textSpan.start) };
      const p = parameterAt(fn, index);
      const escape = p && this.parameter(p, p.dotDotDotToken ? ['[]', ...path] : path, depth);
      if (escape) return escape;
    }
    const elsewhere = impls.find((impl) => impl.fileName !== this.home);
    if (elsewhere) return { ...here, to: this.rel(elsewhere.fileName) };
    if (impls.length > 0) return undefined;
    return { ...here, to: declFile !== this.home ? this.rel(declFile) : '(handed in)' };
  }

  /**
   * A library function keeps the value to itself (an array's `map`, `setTimeout`, a promise's `then`),
   * but these give it back: `Object.freeze` and `Object.assign` return it; a container's `set`, `push`,
   * `add`, `unshift` store it where its reads give it back; `new Proxy(target, { get })` answers any
   * property with what `get` returns, and its traps are called by whoever holds the proxy.
   */
  private library(call: ts.CallExpression | ts.NewExpression, index: number, path: Path, depth: number): ClosureEscape | undefined {
    const e = call.expression;
    const callee = e.getText(this.homeFile).replace(/\s+/g, '');
    if (/^Object\.(freeze|assign)$/.test(callee)) return this.track(call, path, depth);
    if (ts.isNewExpression(call) && callee === 'Proxy' && index === 1 && path[0] === 'get' && path[1] === '()')
      return this.track(call, ['*', ...path.slice(2)], depth);
    // a trap itself: called by whoever uses the proxy
    const trap = path[0];
    if (ts.isNewExpression(call) && callee === 'Proxy' && index === 1 && path.length === 1 && trap) {
      const proxy = this.track(call, [], depth);
      return proxy && { as: trap, via: `new Proxy(handler.${trap}), the proxy ${proxy.via}`, to: proxy.to };
    }
    if (ts.isPropertyAccessExpression(e) && (CONTAINER_STORES.get(e.name.text) ?? -1) <= index && CONTAINER_STORES.has(e.name.text)) {
      const container = e.expression;
      const name = ts.isIdentifier(container) ? container : ts.isPropertyAccessExpression(container) ? container.name : undefined;
      return name ? this.references(name, ['[]', ...path], depth) : undefined;
    }
    return undefined;
  }

  private parameter(param: ts.ParameterDeclaration, path: Path, depth: number): ClosureEscape | undefined {
    return this.binding(param.name, path, depth);
  }

  /** The function a call's callee names, when its value is a function of `src/` (a local arrow, a function, a method). */
  private calleeFunction(call: ts.CallExpression | ts.NewExpression): FunctionNode | undefined {
    const e = call.expression;
    const name = ts.isPropertyAccessExpression(e) ? e.name : ts.isIdentifier(e) ? e : undefined;
    if (!name || ts.isNewExpression(call)) return undefined;
    let symbol = this.checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const decl = symbol?.valueDeclaration;
    if (!decl) return undefined;
    if (isFunctionWithBody(decl)) return decl;
    if ((ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl)) && decl.initializer) {
      const init = unwrap(decl.initializer);
      // a `const` only: a `let` or a property may hold another function by the time of the call
      const fixed = !ts.isVariableDeclaration(decl) || (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0;
      if (fixed && isFunctionWithBody(init)) return init;
    }
    return undefined;
  }

  /** Where the value a property or variable of this file (named at `pos`) is set to comes from: its declaration's file. */
  private originOf(pos: number): string {
    const name = identifierAt(this.homeFile, pos);
    const decl = name?.parent;
    const init = decl && (ts.isPropertyAssignment(decl) || ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl)) ? decl.initializer : undefined;
    const e = init && unwrap(init);
    const ref = e && (ts.isPropertyAccessExpression(e) ? e.name : ts.isIdentifier(e) ? e : undefined);
    let symbol = ref && this.checker.getSymbolAtLocation(ref);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const file = symbol?.declarations?.map((d) => d.getSourceFile().fileName).find((f) => f !== this.home && this.inSrc(f));
    return file ? this.rel(file) : '(handed in)';
  }

  private implementationsOf(call: ts.CallExpression | ts.NewExpression): readonly ts.ImplementationLocation[] {
    const e = call.expression;
    const name = ts.isPropertyAccessExpression(e) ? e.name : ts.isIdentifier(e) ? e : undefined;
    if (!name) return [];
    const found = this.service.getImplementationAtPosition(this.home, name.getStart(this.homeFile)) ?? [];
    return found.filter((impl) => this.inSrc(impl.fileName) || impl.fileName === this.home);
  }

  private referencesOf(name: ts.Node): ts.ReferencedSymbolEntry[] {
    const found = this.service.findReferences(this.home, name.getStart(this.homeFile)) ?? [];
    return found.flatMap((symbol) => symbol.references);
  }

  /** A reference in another file of `src/` that uses the name: not its declaration, an import, or a re-export (a barrel's). */
  private isUse(ref: ts.ReferencedSymbolEntry): boolean {
    if (ref.isDefinition || !this.inSrc(ref.fileName)) return false;
    const source = this.service.getProgram()?.getSourceFile(ref.fileName);
    const at = source && identifierAt(source, ref.textSpan.start);
    const parent = at?.parent;
    return !(
      parent &&
      (ts.isImportSpecifier(parent) ||
        ts.isExportSpecifier(parent) ||
        ts.isImportClause(parent) ||
        ts.isNamespaceImport(parent) ||
        ts.isImportEqualsDeclaration(parent))
    );
  }

  private inSrc(file: string): boolean {
    const rel = relative(this.srcDir, file);
    return !rel.startsWith('..') && !rel.includes('node_modules') && rel !== '';
  }

  private rel(file: string): string {
    return relative(this.srcDir, file).split(sep).join('/');
  }
}

// ---- the source side -------------------------------------------------------------------------------

interface ScriptMap {
  lineStarts: number[];
  /** A script offset's position in the `.ts` source, if the source map has it. */
  original(offset: number, source: ts.SourceFile): number | undefined;
}

/**
 * A script's lines and inline source map. vite-node runs a module inside a wrapper on its first line
 * (`'use strict';async (...)=>{{`), which its source map does not know of: first-line columns are shifted back.
 */
function scriptMapOf(source: string, tsPath: string): ScriptMap | undefined {
  const url = /\/\/# sourceMappingURL=data:application\/json[^,]*;base64,([A-Za-z0-9+/=]+)\s*$/m.exec(source.slice(-4 * 1024 * 1024));
  if (!url?.[1]) return undefined;
  let map: SourceMap;
  try {
    map = new SourceMap(JSON.parse(Buffer.from(url[1], 'base64').toString('utf8')));
  } catch {
    return undefined;
  }
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const wrapper = /^'use strict';async \([^)]*\)=>\{\{/.exec(source)?.[0].length ?? 0;
  return {
    lineStarts,
    original(offset, sourceFile) {
      let line = upperBound(lineStarts, offset) - 1;
      if (line < 0) line = 0;
      let column = offset - lineStarts[line]!;
      if (line === 0) column -= wrapper;
      if (column < 0) return undefined;
      const entry = map.findEntry(line, column) as Partial<{ originalSource: string; originalLine: number; originalColumn: number }>;
      if (entry.originalLine === undefined || entry.originalColumn === undefined || !entry.originalSource) return undefined;
      if (!sameFile(entry.originalSource, tsPath)) return undefined;
      const lines = sourceFile.getLineStarts();
      if (entry.originalLine >= lines.length) return undefined;
      // a source edited since it was loaded maps past its line's end: no position (TypeScript would assert)
      const lineEnd = lines[entry.originalLine + 1] ?? sourceFile.text.length;
      if (lines[entry.originalLine]! + entry.originalColumn > lineEnd) return undefined;
      return sourceFile.getPositionOfLineAndCharacter(entry.originalLine, entry.originalColumn);
    },
  };
}

function sameFile(mapped: string, tsPath: string): boolean {
  let path = mapped;
  try {
    if (mapped.startsWith('file:')) path = fileURLToPath(mapped);
  } catch {
    return false;
  }
  return resolve(path) === resolve(tsPath) || path.endsWith(tsPath) || tsPath.endsWith(path.replace(/^\.?\/+/, ''));
}

/** The index of the first element greater than `value` (sorted ascending). */
function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function closureKind(fn: FunctionNode): ClosureKind | undefined {
  if (ts.isArrowFunction(fn)) return 'arrow';
  if (ts.isFunctionExpression(fn)) return 'function expression';
  if (ts.isFunctionDeclaration(fn)) return 'function declaration';
  if (ts.isMethodDeclaration(fn) && ts.isObjectLiteralExpression(fn.parent)) return 'object method';
  return undefined; // a class's members, accessors
}

/** The nearest function around `node`; none at module scope or when a class comes first (its members' scope). */
function enclosingFunction(node: ts.Node): FunctionNode | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (isFunctionWithBody(at)) return at;
    if (ts.isClassLike(at) || ts.isSourceFile(at)) return undefined;
  }
  return undefined;
}

/** A function's name for the list: `Class.method`, `f`, the variable or property it is assigned to, `f > (anonymous)`. */
function enclosingLabel(fn: FunctionNode): string {
  const own = ownName(fn);
  const outer = ts.isClassLike(fn.parent) ? undefined : enclosingFunction(fn);
  if (own && (!outer || ts.isClassLike(fn.parent) || ts.isFunctionDeclaration(fn))) return own;
  const prefix = outer ? `${enclosingLabel(outer)} > ` : '';
  return `${prefix}${own ?? '(anonymous)'}`;
}

function ownName(fn: FunctionNode): string | undefined {
  if (ts.isConstructorDeclaration(fn)) return `${classLabel(fn)}.constructor`;
  if ((ts.isMethodDeclaration(fn) || ts.isGetAccessor(fn) || ts.isSetAccessor(fn)) && ts.isClassLike(fn.parent)) return `${classLabel(fn)}.${nameOf(fn.name)}`;
  if (fn.name) return nameOf(fn.name);
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent)) return nameOf(parent.name);
  if (ts.isPropertyDeclaration(parent) && ts.isClassLike(parent.parent)) return `${parent.parent.name?.text ?? '(class)'}.${nameOf(parent.name)}`;
  return undefined;
}

function classLabel(member: ts.Node): string {
  const cls = member.parent;
  return cls && ts.isClassLike(cls) ? (cls.name?.text ?? '(class)') : '(object)';
}

function nameOf(name: ts.PropertyName | ts.BindingName): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}

function calleeLabel(call: ts.CallExpression | ts.NewExpression): string {
  const text = call.expression.getText().replace(/\s+/g, '');
  const short = text.length > 60 ? `…${text.slice(-59)}` : text;
  return ts.isNewExpression(call) ? `new ${short}` : short;
}

function render(path: Path): string {
  return path.map((p) => (p === '()' || p === '[]' ? p : p === '*' ? '.(any property)' : `.${p}`)).join('');
}

function lastName(path: Path): string | undefined {
  return [...path].reverse().find((p) => p !== '()' && p !== '[]' && p !== '*');
}

/** An overload's or a declaration's implementation (the declaration with a body), if the symbol has one. */
function implementationOf(decl: ts.SignatureDeclaration, checker: ts.TypeChecker): ts.SignatureDeclaration | undefined {
  if (isFunctionWithBody(decl) || !decl.name) return undefined;
  const symbol = checker.getSymbolAtLocation(decl.name);
  return symbol?.declarations?.find((d): d is FunctionNode => isFunctionWithBody(d) && d.kind === decl.kind);
}

function parameterAt(decl: ts.SignatureDeclaration, index: number): ts.ParameterDeclaration | undefined {
  const params = decl.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
  const param = params[index];
  if (param) return param;
  const last = params[params.length - 1];
  return last?.dotDotDotToken ? last : undefined;
}

/** The identifier (or private name) starting at `pos`. */
function identifierAt(source: ts.SourceFile, pos: number): ts.Identifier | ts.PrivateIdentifier | undefined {
  let node: ts.Node = source;
  for (;;) {
    const child: ts.Node | undefined = ts.forEachChild(node, (c) => (c.getStart(source) <= pos && pos < c.end ? c : undefined));
    if (!child) return undefined;
    if ((ts.isIdentifier(child) || ts.isPrivateIdentifier(child)) && child.getStart(source) === pos) return child;
    node = child;
  }
}

/**
 * The function an implementation location names: a method or function by its name, or the function a
 * property, field or variable of that name is initialized with.
 */
function functionContaining(source: ts.SourceFile, pos: number): FunctionNode | undefined {
  const name = identifierAt(source, pos);
  const decl = name?.parent;
  if (!decl) return undefined;
  if (isFunctionWithBody(decl)) return decl;
  if (ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl) || ts.isVariableDeclaration(decl)) {
    const init = decl.initializer && unwrap(decl.initializer);
    return init && isFunctionWithBody(init) ? init : undefined;
  }
  return undefined;
}

function unwrap(node: ts.Expression): ts.Expression {
  let at = node;
  while (ts.isParenthesizedExpression(at) || ts.isAsExpression(at) || ts.isSatisfiesExpression(at) || ts.isNonNullExpression(at)) at = at.expression;
  return at;
}

/** Files under `src/` that are not counted (the emulated platform, the test helpers): the last choice for where a value goes. */
const NOT_COUNTED = [/^sandbox\//, /^testing\//];

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTs(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The key a closure's range is watched by (`watchCallers`). */
export const rangeKey = (range: Pick<RanRange, 'scriptId' | 'startOffset'>): string => `${range.scriptId}:${range.startOffset}`;

/** A closure that ran in the window, with its calls in the observed triggers after it. */
export interface ClosureRun extends ClosureSite {
  /** Calls in the observed triggers (0: it ran in the window only). */
  calls: number;
  /** Of them, the callers in other files of `src/` (`file function`), with their calls. */
  calledFrom: Record<string, number>;
}

/** Issue #25's "function-valued dependencies carrying state" on one path. */
export interface ClosureFindings {
  /** Closures (made in a counted file) that ran in the window. */
  ran: number;
  /** Of them, those whose value goes out of their file (static): the function-valued dependencies. */
  escaping: ClosureRun[];
  /** The files those are made in ("assembled in N files"). */
  files: string[];
  /** Of the escaping ones, how many were called from another file in the observed triggers. */
  calledFromOtherFile: number;
  /** The files those are made in. */
  calledFiles: string[];
  /** Closures called from another file that the static check found no way out for (through a library, or its gaps). */
  calledButNotEscaping: ClosureRun[];
  /** The triggers observed for the callers, after the window and the sampling runs. */
  observedTriggers: number;
}

/** The findings of a path from its closures and the calls observed into them. */
export function closureFindings(closures: readonly LocatedClosure[], observed: ReadonlyMap<string, ObservedCalls>, observedTriggers: number): ClosureFindings {
  const runs: ClosureRun[] = closures.map(({ site, ranges }) => {
    const from = new Map<string, number>();
    let calls = 0;
    for (const range of ranges) {
      const seen = observed.get(rangeKey(range));
      if (!seen) continue;
      calls += seen.calls;
      for (const [caller, n] of seen.from) from.set(caller, (from.get(caller) ?? 0) + n);
    }
    return { ...site, calls, calledFrom: Object.fromEntries([...from].sort(([a], [b]) => a.localeCompare(b))) };
  });
  const order = (a: ClosureRun, b: ClosureRun): number => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
  const fromOther = (c: ClosureRun): boolean => Object.keys(c.calledFrom).length > 0;
  const escaping = runs.filter((c) => c.escape).sort(order);
  const filesOf = (list: readonly ClosureRun[]): string[] => [...new Set(list.map((c) => c.file))].sort();
  return {
    ran: runs.length,
    escaping,
    files: filesOf(escaping),
    calledFromOtherFile: escaping.filter(fromOther).length,
    calledFiles: filesOf(escaping.filter(fromOther)),
    calledButNotEscaping: runs.filter((c) => !c.escape && fromOther(c)).sort(order),
    observedTriggers,
  };
}
