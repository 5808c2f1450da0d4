/**
 * The demo company's people: a fixed list, so the seed needs no randomness and every run gives the
 * same ids and names. Department and profession follow the position in the list.
 */
export const DEPARTMENTS = ['Engineering', 'Sales', 'People', 'Operations'] as const;
export const PROFESSIONS = ['Engineer', 'Advisor'] as const;
export type DepartmentName = (typeof DEPARTMENTS)[number];

export interface DemoPerson {
  first: string;
  last: string;
  title: string;
  department: DepartmentName;
}

const NAMES: [string, string, string][] = [
  ['Ada', 'Lovelace', 'Head of Engineering'],
  ['Bruno', 'Keller', 'Head of Sales'],
  ['Clara', 'Schmidt', 'Head of People'],
  ['David', 'Okafor', 'Head of Operations'],
  ['Elena', 'Rossi', 'Backend Developer'],
  ['Felix', 'Wagner', 'Account Executive'],
  ['Greta', 'Hansen', 'Recruiter'],
  ['Hugo', 'Martin', 'Logistics Coordinator'],
  ['Ines', 'Fernandes', 'Frontend Developer'],
  ['Jonas', 'Becker', 'Sales Representative'],
  ['Katrin', 'Vogel', 'HR Generalist'],
  ['Lars', 'Nilsson', 'Facility Manager'],
  ['Mira', 'Patel', 'Site Reliability Engineer'],
  ['Noah', 'Fischer', 'Key Account Manager'],
  ['Olga', 'Ivanova', 'Payroll Specialist'],
  ['Paul', 'Dubois', 'Warehouse Lead'],
  ['Quinn', 'Murphy', 'QA Engineer'],
  ['Rosa', 'Garcia', 'Sales Engineer'],
  ['Sven', 'Lindqvist', 'Learning Specialist'],
  ['Tara', 'Nowak', 'Procurement Officer'],
  ['Umut', 'Yilmaz', 'Data Engineer'],
  ['Vera', 'Costa', 'Inside Sales'],
  ['Wim', 'de Vries', 'People Partner'],
  ['Xenia', 'Meyer', 'Fleet Manager'],
  ['Yara', 'Haddad', 'Mobile Developer'],
  ['Zoe', 'Weber', 'Customer Success Manager'],
  ['Anton', 'Richter', 'Office Manager'],
  ['Bea', 'Schulz', 'Shift Supervisor'],
  ['Carlos', 'Mendes', 'Platform Engineer'],
  ['Dana', 'Klein', 'Sales Assistant'],
  ['Emil', 'Wolf', 'Talent Acquisition'],
  ['Frida', 'Berg', 'Maintenance Technician'],
  ['Gustav', 'Lange', 'Security Engineer'],
  ['Hanna', 'Krause', 'Partner Manager'],
  ['Ivo', 'Horvat', 'Benefits Specialist'],
  ['Jana', 'Novak', 'Operations Analyst'],
  ['Kofi', 'Mensah', 'Engineering Manager'],
  ['Lea', 'Braun', 'Business Developer'],
];

/** The demo's 38 employees; the first four head their departments. */
export const DEMO_PEOPLE: DemoPerson[] = NAMES.map(([first, last, title], i) => ({
  first,
  last,
  title,
  department: DEPARTMENTS[i % DEPARTMENTS.length] as DepartmentName,
}));

/** First and last names the `large` seed combines (index arithmetic, no randomness). */
export const LARGE_FIRST_NAMES = NAMES.map(([first]) => first);
export const LARGE_LAST_NAMES = NAMES.map(([, last]) => last);

/** A slug for an email local part: `de Vries` → `devries`. */
export function emailSlug(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]/g, '');
}
