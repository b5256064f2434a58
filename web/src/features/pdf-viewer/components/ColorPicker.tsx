/** The highlight's colour: one radio button a colour of the palette, drawn as its swatch and named by it. */
import { ANNOTATION_COLORS, type AnnotationColor } from '../../../lib/annotations';

export function ColorPicker({
  value,
  onChange,
}: {
  value: AnnotationColor;
  onChange: (color: AnnotationColor) => void;
}) {
  return (
    <fieldset className="color-picker">
      <legend>Colour</legend>
      {ANNOTATION_COLORS.map((color) => (
        <label key={color.id} className="color-choice" title={color.name}>
          <input
            type="radio"
            name="annotation-color"
            value={color.id}
            checked={value === color.id}
            onChange={() => onChange(color.id)}
          />
          <span className="color-swatch" style={{ background: color.hex }} aria-hidden="true" />
          <span className="visually-hidden">{color.name}</span>
        </label>
      ))}
    </fieldset>
  );
}
