// The differential oracle: the Java libraries the platform runs, driven by JSON lines.
//
// Reads one case per line on stdin ({"id":…,"kind":…}) and writes one result per line on stdout:
// {"id":…,"ok":"text"}, {"id":…,"list":["a","b"]} or {"id":…,"error":"java.lang.Class","cause":"…"}.
// One JVM serves a whole run. Kinds:
//   velocity  {template, vars}          Apache Velocity 1.7, strict references (Velocity.evaluate)
//   replace   {input, regex, replacement}  String.replaceAll
//   split     {input, regex, limit}     String.split(regex, limit)
//   date      {input, inputFormat, outputFormat, now}  SimpleDateFormat parse then format, GMT, Locale.US
//   string    {input, method, args}     a public java.lang.String method, or StringUtils pads
//   double    {value}                   Double.toString
// Output strings are written with every character outside printable ASCII as a \\u escape, so a
// lone surrogate (a substring that cuts a pair) survives the trip.

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import org.apache.commons.lang3.StringUtils;
import org.apache.velocity.VelocityContext;
import org.apache.velocity.app.VelocityEngine;

public final class Oracle {
  // The platform's zone: a tenant prints SimpleDateFormat's `z` as GMT (docs/decisions.md, "Dates").
  private static final TimeZone GMT = TimeZone.getTimeZone("GMT");

  public static void main(String[] argv) throws Exception {
    VelocityEngine velocity = new VelocityEngine();
    velocity.setProperty("runtime.references.strict", "true");
    velocity.setProperty("runtime.log.logsystem.class", "org.apache.velocity.runtime.log.NullLogChute");
    // Each case's inline macros live in its own namespace (its template name), so one case's
    // #macro neither leaks into nor is shadowed by another's.
    velocity.setProperty("velocimacro.permissions.allow.inline.local.scope", "true");
    velocity.init();

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      JsonObject c = JsonParser.parseString(line).getAsJsonObject();
      StringBuilder r = new StringBuilder("{\"id\":").append(c.get("id").getAsLong());
      try {
        Object value = run(velocity, c);
        if (value instanceof String[]) {
          r.append(",\"list\":[");
          String[] parts = (String[]) value;
          for (int i = 0; i < parts.length; i++) {
            if (i > 0) r.append(',');
            quote(r, parts[i]);
          }
          r.append(']');
        } else {
          r.append(",\"ok\":");
          quote(r, String.valueOf(value));
        }
      } catch (Throwable t) {
        Throwable e = t instanceof InvocationTargetException ? t.getCause() : t;
        r.append(",\"error\":");
        quote(r, e.getClass().getName());
        if (e.getCause() != null) {
          r.append(",\"cause\":");
          quote(r, e.getCause().getClass().getName());
        }
      }
      out.println(r.append('}'));
      if (!in.ready()) out.flush();
    }
    out.flush();
  }

  private static Object run(VelocityEngine velocity, JsonObject c) throws Exception {
    String kind = c.get("kind").getAsString();
    switch (kind) {
      case "velocity": {
        VelocityContext context = new VelocityContext();
        JsonObject vars = c.getAsJsonObject("vars");
        for (Map.Entry<String, JsonElement> e : vars.entrySet()) {
          Object v = toJava(e.getValue());
          if (v != null) context.put(e.getKey(), v);
        }
        StringWriter w = new StringWriter();
        velocity.evaluate(context, w, "case" + c.get("id").getAsLong(), c.get("template").getAsString());
        return w.toString();
      }
      case "replace":
        return str(c, "input").replaceAll(str(c, "regex"), str(c, "replacement"));
      case "split":
        return str(c, "input").split(str(c, "regex"), c.get("limit").getAsInt());
      case "date": {
        SimpleDateFormat parser = new SimpleDateFormat(str(c, "inputFormat"), Locale.US);
        parser.setTimeZone(GMT);
        Calendar start = Calendar.getInstance(GMT, Locale.US);
        start.setTimeInMillis(c.get("now").getAsLong());
        start.add(Calendar.YEAR, -80);
        parser.set2DigitYearStart(start.getTime());
        SimpleDateFormat formatter = new SimpleDateFormat(str(c, "outputFormat"), Locale.US);
        formatter.setTimeZone(GMT);
        Date d = parser.parse(str(c, "input"));
        return formatter.format(d);
      }
      case "string":
        return stringMethod(str(c, "input"), str(c, "method"), c.getAsJsonArray("args"));
      case "double":
        return Double.toString(Double.parseDouble(c.get("value").getAsString()));
      default:
        throw new IllegalStateException("unknown kind " + kind);
    }
  }

  private static String str(JsonObject c, String key) {
    return c.get(key).getAsString();
  }

  private static Object stringMethod(String s, String method, JsonArray args) throws Exception {
    switch (method) {
      case "leftPad":
        return StringUtils.leftPad(s, args.get(0).getAsInt(), args.size() > 1 ? args.get(1).getAsString() : " ");
      case "rightPad":
        return StringUtils.rightPad(s, args.get(0).getAsInt(), args.size() > 1 ? args.get(1).getAsString() : " ");
      default:
        break;
    }
    Object[] values = new Object[args.size()];
    Class<?>[] types = new Class<?>[args.size()];
    for (int i = 0; i < values.length; i++) {
      JsonPrimitive p = args.get(i).getAsJsonPrimitive();
      if (p.isNumber()) {
        values[i] = p.getAsInt();
        types[i] = int.class;
      } else {
        values[i] = p.getAsString();
        types[i] = String.class;
      }
    }
    Method m = find(method, types);
    Object result = m.invoke(s, values);
    if (result instanceof String[]) return result;
    return result;
  }

  private static Method find(String name, Class<?>[] types) throws NoSuchMethodException {
    for (Method m : String.class.getMethods()) {
      if (!m.getName().equals(name) || m.getParameterCount() != types.length) continue;
      Class<?>[] p = m.getParameterTypes();
      boolean fits = true;
      for (int i = 0; i < p.length; i++) {
        if (types[i] == int.class ? p[i] != int.class : !p[i].isAssignableFrom(String.class)) fits = false;
      }
      if (fits) return m;
    }
    throw new NoSuchMethodException(name);
  }

  /** JSON → the Java values a Velocity context holds: Integer/Long/Double, String, Boolean, List, Map. */
  private static Object toJava(JsonElement e) {
    if (e == null || e.isJsonNull()) return null;
    if (e.isJsonArray()) {
      List<Object> list = new ArrayList<>();
      for (JsonElement x : e.getAsJsonArray()) list.add(toJava(x));
      return list;
    }
    if (e.isJsonObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonElement> x : e.getAsJsonObject().entrySet()) map.put(x.getKey(), toJava(x.getValue()));
      return map;
    }
    JsonPrimitive p = e.getAsJsonPrimitive();
    if (p.isBoolean()) return p.getAsBoolean();
    if (p.isString()) return p.getAsString();
    BigDecimal d = p.getAsBigDecimal();
    if (d.signum() == 0 || d.stripTrailingZeros().scale() <= 0) {
      long l = d.longValueExact();
      if (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) return (int) l;
      return l;
    }
    return d.doubleValue();
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '"' || ch == '\\') b.append('\\').append(ch);
      else if (ch >= 0x20 && ch < 0x7f) b.append(ch);
      else b.append(String.format("\\u%04x", (int) ch));
    }
    b.append('"');
  }
}
